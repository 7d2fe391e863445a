/** Turns `[n]` in rendered answer text into citation links, by rewriting text nodes (never HTML strings). */

import { linktextFor, segmentCitations, headingTrail } from "../answer/citations";
import type { Source } from "../sidecar/wire";

export const CITATION_CLASS = "ask-vault-citation";
/** Elements whose text is never linkified: code, existing links, and citations already made. */
const SKIP = `code, pre, a, .${CITATION_CLASS}`;

/** Marks an element as pointing at source `n` of turn `turnId` (used by citations and by the sources list). */
export function markSource(el: HTMLElement, turnId: number, source: Source): void {
	el.setAttr("data-ask-vault-turn", turnId);
	el.setAttr("data-ask-vault-n", source.n ?? "");
	el.setAttr("data-href", linktextFor(source));
	el.setAttr("aria-label", `Source ${source.n ?? ""}: ${headingTrail(source)}`);
}

export function linkifyCitations(root: HTMLElement, turnId: number, sources: ReadonlyMap<number, Source>): number {
	const doc = root.doc;
	const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
	const textNodes: Text[] = [];
	for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
		if (node.nodeType === Node.TEXT_NODE) textNodes.push(node as Text);
	}
	let made = 0;
	for (const node of textNodes) {
		if (!node.data.includes("[") || node.parentElement?.closest(SKIP)) continue;
		const segments = segmentCitations(node.data, (n) => sources.has(n));
		if (!segments.some((s) => s.kind === "cite")) continue;
		const fragment = createFragment();
		for (const segment of segments) {
			if (segment.kind === "text") {
				fragment.appendChild(doc.createTextNode(segment.text));
				continue;
			}
			const source = sources.get(segment.n);
			if (!source) continue;
			const link = fragment.createEl("a", { cls: CITATION_CLASS, text: segment.text, attr: { role: "link", tabindex: 0 } });
			markSource(link, turnId, source);
			made += 1;
		}
		node.replaceWith(fragment);
	}
	return made;
}
