/** Maps the `[n]` markers of an answer to the sources that were sent, and to where they live in the vault. */

import type { RetrievalEvent, Source } from "../sidecar/wire";

export type Segment = { kind: "text"; text: string } | { kind: "cite"; n: number; text: string };

/** `[1]`, `[2, 3]` or `[2,3]`; a marker followed by `(` is a Markdown link, not a citation. */
const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()/g;

/**
 * Splits plain text into text and citation segments. Only numbers `isKnown` accepts become citations
 * (a number the model made up stays as it was written); `[2, 3]` becomes `[2]` `[3]`.
 */
export function segmentCitations(text: string, isKnown: (n: number) => boolean): Segment[] {
	const segments: Segment[] = [];
	let last = 0;
	const pushText = (t: string) => {
		if (t === "") return;
		const prev = segments[segments.length - 1];
		if (prev?.kind === "text") prev.text += t;
		else segments.push({ kind: "text", text: t });
	};
	for (const match of text.matchAll(MARKER)) {
		const numbers = (match[1] ?? "").split(",").map((x) => Number.parseInt(x.trim(), 10));
		if (!numbers.every(isKnown)) continue;
		pushText(text.slice(last, match.index));
		for (const n of numbers) segments.push({ kind: "cite", n, text: `[${n}]` });
		last = match.index + match[0].length;
	}
	pushText(text.slice(last));
	return segments;
}

/** The sources that were sent to the model, in prompt order (`[1]`, `[2]`, …). */
export function sentSources(retrieval: RetrievalEvent | null): Source[] {
	if (!retrieval) return [];
	const byId = new Map(retrieval.sources.map((s) => [s.id, s]));
	const ordered = retrieval.sent.map((id) => byId.get(id)).filter((s): s is Source => s !== undefined && s.n !== null);
	if (ordered.length > 0) return ordered;
	return retrieval.sources.filter((s) => s.sent && s.n !== null).sort((a, b) => (a.n ?? 0) - (b.n ?? 0));
}

export function sourceByNumber(retrieval: RetrievalEvent | null, n: number): Source | undefined {
	return sentSources(retrieval).find((s) => s.n === n);
}

export interface Located {
	path: string;
	heading_path: string[];
	start_line: number;
	/** The page of a PDF the chunk starts on (1-based); null or absent for a note or canvas. */
	page?: number | null;
}

/** `paper.pdf#page=3`: the link text Obsidian's PDF view opens at that page. */
function pageLink(loc: Located): string | null {
	return typeof loc.page === "number" && loc.page >= 1 ? `${loc.path}#page=${loc.page}` : null;
}

/** Where a chunk sits, in the words the inspector shows: `page 3` in a PDF, `canvas` for a canvas's cards (their
 * lines are those of the text made from it), else `lines 4–9`. */
export function placeLabel(loc: Located & { end_line: number }): string {
	if (typeof loc.page === "number") return `page ${loc.page}`;
	if (loc.path.toLowerCase().endsWith(".canvas")) return "canvas";
	return `lines ${loc.start_line}–${loc.end_line}`;
}

/** Characters that end or split a link's subpath in Obsidian; Obsidian drops them when it matches headings too. */
const LINK_SPECIALS = /[#|^[\]]+/g;

export function cleanHeading(heading: string): string {
	return heading.replace(LINK_SPECIALS, " ").replace(/\s+/g, " ").trim();
}

/** The innermost heading of a chunk, or null when it sits before the first heading. */
export function innermostHeading(loc: Located): string | null {
	const last = loc.heading_path[loc.heading_path.length - 1];
	if (last === undefined) return null;
	const clean = cleanHeading(last);
	return clean === "" ? null : clean;
}

/** `path#heading`, the link text Obsidian opens and previews at that heading (just `path` without one). */
export function linktextFor(loc: Located): string {
	const page = pageLink(loc);
	if (page !== null) return page;
	const heading = innermostHeading(loc);
	return heading === null ? loc.path : `${loc.path}#${heading}`;
}

/** `Folder/Note.md › Heading › Sub`, the trail shown next to a source. */
export function headingTrail(loc: Located): string {
	return [loc.path, ...loc.heading_path].join(" › ");
}

export interface OpenTarget {
	linktext: string;
	/** 0-based line to scroll to when the heading cannot be matched in the note. */
	line: number | null;
}

/**
 * Where a click should open: at the heading when the note has it (or when we cannot tell), else at the
 * chunk's first line (1-based in the wire format, 0-based for the editor).
 */
export function openTarget(loc: Located, headingsInNote: string[] | null): OpenTarget {
	const page = pageLink(loc);
	if (page !== null) return { linktext: page, line: null };
	const heading = innermostHeading(loc);
	if (heading === null) return { linktext: loc.path, line: Math.max(0, loc.start_line - 1) };
	if (headingsInNote === null || headingsInNote.some((h) => cleanHeading(h) === heading)) {
		return { linktext: `${loc.path}#${heading}`, line: null };
	}
	return { linktext: loc.path, line: Math.max(0, loc.start_line - 1) };
}
