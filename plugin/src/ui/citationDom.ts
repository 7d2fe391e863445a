/** Turns `[n]` in rendered answer text into citation links, by rewriting text nodes (never HTML strings). */

import { linktextFor, segmentCitations, headingTrail, sourceByNumber } from "../answer/citations";
import { closestById } from "../answer/relevance";
import type { RetrievalEvent, Source } from "../sidecar/wire";

export const CITATION_CLASS = "ask-vault-citation";
/** Everything that points at a note of an answer: citations, sent sources and the closest notes not used. */
export const SOURCE_SELECTOR = "[data-ask-vault-n], [data-ask-vault-closest]";
/** Elements whose text is never linkified: code, existing links, and citations already made. */
const SKIP = `code, pre, a, .${CITATION_CLASS}`;

/** Marks an element as pointing at source `n` of turn `turnId` (used by citations and by the sources list). */
export function markSource(el: HTMLElement, turnId: number, source: Source): void {
	el.setAttr("data-ask-vault-turn", turnId);
	el.setAttr("data-ask-vault-n", source.n ?? "");
	el.setAttr("data-href", linktextFor(source));
	el.setAttr("aria-label", `Source ${source.n ?? ""}: ${headingTrail(source)}`);
}

/** Marks an element as pointing at one of turn `turnId`'s closest notes (not sent, so it has no number). */
export function markClosest(el: HTMLElement, turnId: number, source: Source): void {
	el.setAttr("data-ask-vault-turn", turnId);
	el.setAttr("data-ask-vault-closest", source.id);
	el.setAttr("data-href", linktextFor(source));
	el.setAttr("aria-label", `Closest note, not used: ${headingTrail(source)}`);
}

/** The source a marked element points at, looked up in its turn's retrieval event. */
export function markedSource(el: HTMLElement, retrievalOf: (turnId: number) => RetrievalEvent | null): Source | undefined {
	const retrieval = retrievalOf(Number(el.getAttr("data-ask-vault-turn")));
	const closest = el.getAttr("data-ask-vault-closest");
	if (closest !== null) return closestById(retrieval, closest);
	return sourceByNumber(retrieval, Number(el.getAttr("data-ask-vault-n")));
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
