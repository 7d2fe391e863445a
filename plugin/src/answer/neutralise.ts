/**
 * The answer text as it may be rendered (docs/api.md, "Rendering answers"): nothing in it loads, embeds or runs
 * by itself. Streamed tokens are the model's raw words, so the pane renders them through this, holding back a
 * construct that is not finished yet; the sidecar's final `done.answer` goes through it too, which changes
 * nothing in an answer the sidecar already made inert. Mirrors backend/askvault/generate/answer_safety.py.
 *
 * Blocks first: fenced code is kept as written (its language made `text` unless a plain highlighter owns it);
 * everything else is prose, made inert paragraph by paragraph (inline.ts), table rows cell by cell.
 */

import { type Neutralised, type NeutralisedKind, neutraliseInline } from "./inline";
import { closingRun, inlineTail, runEnd } from "./linkSyntax";
import { hostOf, isExternal } from "./urls";

export type { Neutralised, NeutralisedKind } from "./inline";

/** Code block languages that only a syntax highlighter uses (the same list as the sidecar's). */
export const SAFE_LANGUAGES: ReadonlySet<string> = new Set(
	[
		"bash sh zsh fish shell console shell-session python py javascript js typescript ts json jsonc yaml yml",
		"toml ini conf cfg properties env sql go golang rust rs java kotlin kt swift c cpp c++ h hpp cs csharp",
		"css scss less html xml diff patch dockerfile docker makefile make nginx apache text txt plaintext plain",
		"markdown md powershell ps1 lua ruby rb php perl r dart scala haskell elixir erlang ocaml nix hcl",
		"terraform graphql proto protobuf csv tsv log regex latex tex vim",
	]
		.join(" ")
		.split(" "),
);

export interface SafeAnswer {
	/** The text to render. */
	text: string;
	/** What was made inert, in order. */
	neutralised: Neutralised[];
	/** How many characters at the end are held back until the construct they start is complete (streaming only). */
	held: number;
}

/** A fence opener line; `indent` in columns (tabs to the next multiple of 4). */
interface FenceLine {
	indent: number;
	prefix: string;
	run: string;
	info: string;
}

const OPENER = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const CLOSER = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
/** Block quote markers and list item markers in front of a line's content. */
const CONTAINER = /^(?:[ \t]*(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t])))+[ \t]*/;
const DEFINITION = /^[ \t]*\[(?!\^)([^\]\n]{1,999})\]:[ \t]*(\S*)/;
const DELIMITER_ROW = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
/** Held-back text never grows past this: a stray `[` shows (safely, as text) once this much follows it. */
const HOLD_WINDOW = 600;

function columns(whitespace: string): number {
	let width = 0;
	for (const c of whitespace) width = c === "\t" ? width + 4 - (width % 4) : width + 1;
	return width;
}

function leadingWhitespace(line: string): string {
	return /^[ \t]*/.exec(line)?.[0] ?? "";
}

function fenceOpener(line: string): FenceLine | null {
	const m = OPENER.exec(line);
	if (!m) return null;
	const [, prefix = "", run = "", info = ""] = m;
	if (run.startsWith("`") && info.includes("`")) return null;
	return { indent: columns(prefix), prefix, run, info };
}

/** The opener written back with only a language a highlighter owns (else `text`); an unsafe one is noted. */
function safeOpener(prefix: string, run: string, info: string, note: (kind: NeutralisedKind, target: string | null) => void): string {
	const language = info.trim().split(/\s+/, 1)[0] ?? "";
	if (language === "") return `${prefix}${run}`;
	if (SAFE_LANGUAGES.has(language.toLowerCase())) return `${prefix}${run}${language}`;
	note("code", language.toLowerCase().replace(/[^a-z0-9_+.-]/g, "").slice(0, 40) || null);
	return `${prefix}${run}text`;
}

type Line = { text: string; kind: "prose" | "code" };

/**
 * Splits lines into prose and code. A fence opens as CommonMark says (up to 3 columns of indent; a backtick
 * info string has no backtick) and closes as early as any renderer might: a fence line of the same character,
 * or a line indented less than the opener (the end of the list item that held it).
 */
function classify(lines: string[], note: (kind: NeutralisedKind, target: string | null) => void): { lines: Line[]; open: boolean } {
	const out: Line[] = [];
	let fence: { char: string; indent: number } | null = null;
	for (const line of lines) {
		if (fence) {
			const closer = CLOSER.exec(line);
			if (closer && closer[1]?.startsWith(fence.char)) {
				out.push({ text: line, kind: "code" });
				fence = null;
				continue;
			}
			if (line.trim() === "" || columns(leadingWhitespace(line)) >= fence.indent) {
				out.push({ text: line, kind: "code" });
				continue;
			}
			fence = null;
		}
		const opener = fenceOpener(line);
		if (opener && opener.indent <= 3) {
			out.push({ text: safeOpener(opener.prefix, opener.run, opener.info, note), kind: "code" });
			fence = { char: opener.run[0] ?? "`", indent: opener.indent };
		} else {
			out.push({ text: line, kind: "prose" });
		}
	}
	return { lines: out, open: fence !== null };
}

/** Makes a paragraph inert: definitions to external targets dropped, fences inside containers relabelled, the rest scanned. */
function paragraph(lines: string[], note: (kind: NeutralisedKind, target: string | null) => void): string[] {
	const table = lines.some((l) => l.includes("|") && DELIMITER_ROW.test(l.replace(CONTAINER, "")));
	const out: string[] = [];
	let run: string[] = [];
	const flush = () => {
		if (run.length === 0) return;
		if (table) out.push(...run.map((l) => splitCells(l).map((cell) => neutraliseInline(cell, note)).join("|")));
		else out.push(...neutraliseInline(run.join("\n"), note).split("\n"));
		run = [];
	};
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i] ?? "";
		const prefix = CONTAINER.exec(line)?.[0] ?? "";
		const rest = line.slice(prefix.length);
		const definition = DEFINITION.exec(rest);
		if (definition) {
			let target = definition[2] ?? "";
			const onNextLine = target === "" && i + 1 < lines.length;
			if (onNextLine) target = (lines[i + 1] ?? "").replace(CONTAINER, "").trim().split(/\s+/, 1)[0] ?? "";
			if (target !== "" && isExternal(target)) {
				flush();
				note("definition", hostOf(target));
				if (onNextLine) i += 1;
				continue;
			}
		}
		const fence = prefix !== "" || columns(leadingWhitespace(line)) > 3 ? fenceOpener(rest.trimStart()) : null;
		if (fence) {
			flush();
			out.push(safeOpener(line.slice(0, line.length - rest.trimStart().length), fence.run, fence.info, note));
			continue;
		}
		run.push(line);
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

function neutraliseText(text: string, note: (kind: NeutralisedKind, target: string | null) => void): string {
	const { lines } = classify(text.split("\n"), note);
	const out: string[] = [];
	let prose: string[] = [];
	const flush = () => {
		if (prose.length > 0) out.push(...paragraph(prose, note));
		prose = [];
	};
	for (const line of lines) {
		if (line.kind === "code") {
			flush();
			out.push(line.text);
		} else if (line.text.trim() === "") {
			flush();
			out.push(line.text);
		} else {
			prose.push(line.text);
		}
	}
	flush();
	return out.join("\n");
}

/** Where streaming text stops being shown: before an unfinished fence opener, definition, link, image, embed or tag. */
export function holdPoint(text: string): number {
	const lastStart = text.lastIndexOf("\n") + 1;
	const { lines, open } = classify(text.slice(0, lastStart).split("\n").slice(0, -1), () => undefined);
	if (open) return text.length; // inside a fence everything is code: it can show as it comes
	const last = text.slice(lastStart);
	const content = last.replace(CONTAINER, "");
	// A fence opener still being written (its language decides how the block renders), or a definition.
	if (/^[ \t]*(?:`{1,2}|~{1,2})$/.test(content) || fenceOpener(content.trimStart()) !== null) return lastStart;
	if (/^[ \t]{0,3}\[(?!\^)[^\]\n]*\]:/.test(content)) return lastStart;
	let start = lastStart;
	for (let i = lines.length - 1; i >= 0; i--) {
		const line = lines[i];
		if (!line || line.kind === "code" || line.text.trim() === "") break;
		start -= line.text.length + 1;
	}
	return start + holdInParagraph(text.slice(start));
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

/** The answer made inert; with `streaming`, an unfinished construct at the end is held back rather than shown half-parsed. */
export function neutraliseAnswer(text: string, options: { streaming?: boolean } = {}): SafeAnswer {
	const shown = options.streaming ? text.slice(0, holdPoint(text)) : text;
	const neutralised: Neutralised[] = [];
	const safe = neutraliseText(shown, (kind, target) => neutralised.push({ kind, target }));
	return { text: safe, neutralised, held: text.length - shown.length };
}
