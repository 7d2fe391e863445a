/**
 * The answer text as it may be rendered (docs/api.md, "Rendering answers"): nothing in it loads, embeds or runs
 * by itself. Streamed tokens are the model's raw words, so the pane renders them through this, holding back a
 * construct that is not finished yet; the sidecar's final `done.answer` goes through it too, which changes
 * nothing in an answer the sidecar already made inert. Mirrors backend/askvault/safety/answer.py.
 *
 * Blocks first: fenced code is kept as written (its language made `text` unless a plain highlighter owns it;
 * fences.ts), everything else is prose, made inert paragraph by paragraph (inline.ts), table rows cell by cell;
 * line ends normalised first, and passes repeated until the text stops changing.
 */

import { blank, classify, fenceOpener, type Note, safeOpener, stripContainer } from "./fences";
import { type Neutralised, neutraliseInline } from "./inline";
import { closingRun, inlineTail, runEnd } from "./linkSyntax";
import { hostOf, isExternal } from "./urls";

export { SAFE_LANGUAGES } from "./fences";
export type { Neutralised, NeutralisedKind } from "./inline";

export interface SafeAnswer {
	/** The text to render. */
	text: string;
	/** What was made inert, in order. */
	neutralised: Neutralised[];
	/**
	 * How many characters at the end are held back until the construct they start is complete (streaming only),
	 * counted in the text with its line ends normalised.
	 */
	held: number;
}

const DEFINITION = /^[ \t]*\[(?!\^)(?:[^\\\]]|\\[\s\S]){1,999}\]:/;
const DELIMITER_ROW = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
/** Whitespace as the sidecar (Python's `str.split`) reads it between a definition's parts: `\s` without U+FEFF, with U+001C–U+001F. */
const space = (c: string) => (/\s|\x85/.test(c) && c !== "\ufeff") || (c >= "\u001c" && c <= "\u001f");
const QUERY_START = /^([ \t]*)(\$?=)/;
const ESCAPE_OR_RUN = /\\[\s\S]|`+/g;
/** Held-back text never grows past this: a stray `[` shows (safely, as text) once this much follows it. */
const HOLD_WINDOW = 600;
/** A change can bring lines together into a new construct: passes until nothing changes, at most this many. */
const MAX_PASSES = 4;
/** How many lines a definition's label may run over (the sidecar's limit). */
const LABEL_LINES = 8;

const trimStart = (line: string) => line.replace(/^[ \t]+/, "");

/** A reference definition starting at line `i` (its label may run over lines): its target and its last line. */
function definitionTarget(lines: string[], i: number): { target: string; last: number } | null {
	const rest = stripContainer(lines[i] ?? "");
	const start = trimStart(rest);
	if (!start.startsWith("[") || start.startsWith("[^")) return null;
	let joined = rest;
	for (let last = i; last < Math.min(i + LABEL_LINES, lines.length); last++) {
		if (last > i) joined += `\n${stripContainer(lines[last] ?? "")}`;
		const match = DEFINITION.exec(joined);
		if (!match) continue;
		let after = trimStart(joined.slice(match[0].length));
		let end = last;
		if (after === "" && end + 1 < lines.length) {
			end += 1;
			after = trimStart(stripContainer(lines[end] ?? ""));
		}
		const close = after.indexOf(">");
		if (after.startsWith("<") && close !== -1 && /^[ \t]?$/.test(after.charAt(close + 1))) return { target: after.slice(0, close + 1), last: end };
		const word = firstWord(after);
		return word === "" ? null : { target: word, last: end };
	}
	return null;
}

function firstWord(text: string): string {
	let start = 0;
	while (start < text.length && space(text.charAt(start))) start += 1;
	let end = start;
	while (end < text.length && !space(text.charAt(end))) end += 1;
	return text.slice(start, end);
}

/** Backtick runs of these lengths escaped: a renderer that reads a fence line above as paragraph text could close
 * a code span it opens at one of them, and the text after that would be prose the scan saw as code. */
function escapeRuns(line: string, lengths: ReadonlySet<number>): string {
	return line.replace(ESCAPE_OR_RUN, (token) => (token.startsWith("`") && lengths.has(token.length) ? "\\`".repeat(token.length) : token));
}

/**
 * Makes a paragraph inert: definitions to external targets dropped, fences in containers relabelled, the rest
 * scanned. A fence line here (in a list item or a quote, or after renderers stopped agreeing) is written back with
 * a safe language only; the lines after it are prose to the scan, harmless if a renderer shows them as code.
 */
function paragraph(lines: string[], note: Note): string[] {
	const table = lines.some((l) => l.includes("|") && DELIMITER_ROW.test(stripContainer(l)));
	const out: string[] = [];
	let run: string[] = [];
	const fenceRuns = new Set<number>();
	let bareFence = false;
	const flush = () => {
		if (run.length === 0) return;
		if (table) out.push(...run.map((l) => splitCells(l).map((cell) => neutraliseInline(cell, note)).join("|")));
		else out.push(...neutraliseInline(run.join("\n"), note).split("\n"));
		run = [];
	};
	for (let i = 0; i < lines.length; i++) {
		let line = lines[i] ?? "";
		const definition = definitionTarget(lines, i);
		if (definition && isExternal(definition.target)) {
			flush();
			note("definition", hostOf(definition.target));
			i = definition.last;
			continue;
		}
		const content = trimStart(stripContainer(line));
		const fence = fenceOpener(content);
		if (fence) {
			flush();
			const opener = safeOpener(line.slice(0, line.length - content.length), fence.run, fence.info, note);
			out.push(opener);
			if (fence.run.startsWith("`")) {
				fenceRuns.add(fence.run.length);
				bareFence = opener.endsWith("`");
			}
			continue;
		}
		if (fenceRuns.size > 0) line = escapeRuns(line, fenceRuns);
		// Read as paragraph text, a bare fence opens a code span whose text starts here: no query.
		if (bareFence) line = line.replace(QUERY_START, "$1\\$2");
		run.push(line);
		bareFence = false;
	}
	flush();
	return out;
}

/** Table cells: split at every `|` not escaped (GFM splits before code spans, so one cannot hide a cell's content). */
function splitCells(line: string): string[] {
	const cells: string[] = [];
	let start = 0;
	for (let i = 0; i < line.length; i++) {
		if (line[i] === "\\") i += 1;
		else if (line[i] === "|") {
			cells.push(line.slice(start, i));
			start = i + 1;
		}
	}
	cells.push(line.slice(start));
	return cells;
}

/**
 * Paragraphs already made inert, with what was noted in them. Streaming neutralises every prefix of the answer, so
 * all paragraphs but the last come round again unchanged at each token (and again in the confirming pass); a
 * paragraph's result depends on its lines only.
 */
const PARAGRAPHS = new Map<string, { lines: string[]; notes: Neutralised[] }>();
const PARAGRAPHS_KEPT = 256;

function remembered(lines: string[], note: Note): string[] {
	const key = lines.join("\n");
	let done = PARAGRAPHS.get(key);
	if (done === undefined) {
		const notes: Neutralised[] = [];
		done = { lines: paragraph(lines, (kind, target) => notes.push({ kind, target })), notes };
		if (PARAGRAPHS.size >= PARAGRAPHS_KEPT) PARAGRAPHS.clear();
		PARAGRAPHS.set(key, done);
	}
	for (const n of done.notes) note(n.kind, n.target);
	return done.lines;
}

function neutraliseText(text: string, note: Note): string {
	const { lines } = classify(text.split("\n"), note);
	const out: string[] = [];
	let prose: string[] = [];
	const flush = () => {
		if (prose.length > 0) out.push(...remembered(prose, note));
		prose = [];
	};
	for (const line of lines) {
		if (line.kind === "code" || blank(line.text)) {
			flush();
			out.push(line.text);
		} else {
			prose.push(line.text);
		}
	}
	flush();
	return out.join("\n");
}

/**
 * Where streaming text stops being shown: before an unfinished fence opener, definition, link, image, embed or tag.
 * `text` has its line ends normalised (`normaliseLineEnds`).
 */
export function holdPoint(text: string): number {
	const lastStart = text.lastIndexOf("\n") + 1;
	const { lines, open } = classify(text.slice(0, lastStart).split("\n").slice(0, -1), () => undefined);
	if (open) return text.length; // inside a fence everything is code: it can show as it comes
	const content = stripContainer(text.slice(lastStart));
	// A fence opener still being written (its language decides how the block renders).
	if (/^[ \t]*(?:`{1,2}|~{1,2})$/.test(content) || fenceOpener(trimStart(content)) !== null) return lastStart;
	let start = lastStart;
	for (let i = lines.length - 1; i >= 0; i--) {
		const line = lines[i];
		if (!line || line.kind === "code" || blank(line.text)) break;
		start -= line.text.length + 1;
	}
	const definition = definitionHold(text.slice(start));
	return start + (definition === -1 ? holdInParagraph(text.slice(start)) : definition);
}

/** A definition in the last paragraph whose label closes on its last line (its target still coming): its line's offset, or -1. */
function definitionHold(p: string): number {
	const lines = p.split("\n");
	let offset = p.length - (lines[lines.length - 1] ?? "").length;
	for (let i = lines.length - 1; i >= Math.max(0, lines.length - LABEL_LINES); i--) {
		const first = trimStart(stripContainer(lines[i] ?? ""));
		if (first.startsWith("[") && !first.startsWith("[^")) {
			const joined = lines.slice(i).map(stripContainer).join("\n");
			const match = DEFINITION.exec(joined);
			if (match && !joined.includes("\n", match[0].length)) return offset;
		}
		offset -= (lines[i - 1] ?? "").length + 1;
	}
	return -1;
}

/** The first unfinished `[`, `![`, `<` or trailing `!` in the last paragraph (its offset), or its length. */
function holdInParagraph(p: string): number {
	let hold = p.length;
	const consider = (at: number) => {
		if (p.length - at <= HOLD_WINDOW) hold = Math.min(hold, at);
	};
	const openers: number[] = [];
	for (let i = 0; i < p.length; ) {
		const c = p[i];
		if (c === "\\") {
			i += 2;
		} else if (c === "`") {
			const end = runEnd(p, i);
			const close = closingRun(p, end, end - i);
			i = close === -1 ? end : close + (end - i);
		} else if (c === "!" && p[i + 1] === "[") {
			openers.push(i);
			i += 2;
		} else if (c === "[") {
			openers.push(i);
			i += 1;
		} else if (c === "]") {
			const opener = openers.pop();
			i += 1;
			if (opener === undefined) continue;
			if (i === p.length) consider(opener);
			else if (p[i] === "(") {
				const tail = inlineTail(p, i);
				if (tail) i = tail.end;
				else if (!p.includes(")", i)) consider(opener);
			} else if (p[i] === "[" && !p.includes("]", i)) {
				consider(opener);
			}
		} else if (c === "<") {
			if (i + 1 === p.length || (/[A-Za-z/!?]/.test(p[i + 1] ?? "") && !p.includes(">", i))) consider(i);
			i += 1;
		} else {
			if (c === "!" && i + 1 === p.length) consider(i);
			i += 1;
		}
	}
	for (const opener of openers) consider(opener);
	return hold;
}

/** Line ends as renderers read them: CR and CRLF are line ends, NUL is U+FFFD. */
export function normaliseLineEnds(text: string): string {
	return text.replace(/\r\n?/g, "\n").replace(/\0/g, "\ufffd");
}

/**
 * The answer made inert; with `streaming`, an unfinished construct at the end is held back rather than shown
 * half-parsed. Repeated until nothing changes (a dropped definition can join its neighbours into a new
 * construct), so the sidecar applying the same rules again changes nothing.
 */
export function neutraliseAnswer(text: string, options: { streaming?: boolean } = {}): SafeAnswer {
	const normal = normaliseLineEnds(text);
	const shown = options.streaming ? normal.slice(0, holdPoint(normal)) : normal;
	const neutralised: Neutralised[] = [];
	const note: Note = (kind, target) => neutralised.push({ kind, target });
	let safe = shown;
	for (let pass = 0; pass < MAX_PASSES; pass++) {
		const again = neutraliseText(safe, note);
		if (again === safe) break;
		safe = again;
	}
	return { text: safe, neutralised, held: normal.length - shown.length };
}
