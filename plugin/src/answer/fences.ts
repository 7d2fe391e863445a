/**
 * Fenced code in an answer, read as cautiously as the renderers disagree: which lines are code, and how a fence
 * line is written back (its language kept only when a plain highlighter owns it). Mirrors the fence half of
 * backend/askvault/safety/answer.py.
 */

import type { NeutralisedKind } from "./inline";

export type Note = (kind: NeutralisedKind, target: string | null) => void;

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

/** A fence line; `indent` in columns (tabs to the next multiple of 4). */
export interface FenceLine {
	indent: number;
	prefix: string;
	run: string;
	info: string;
}

export type Line = { text: string; kind: "prose" | "code" };

const OPENER = /^([ \t]*)(`{3,}|~{3,})(.*)$/s;
const CLOSER = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
/** Block quote markers and list item markers in front of a line's content. */
export const CONTAINER = /^(?:[ \t]*(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t])))+[ \t]*/;

/** Width in columns, tabs to the next multiple of 4. */
export function columns(whitespace: string): number {
	let width = 0;
	for (const c of whitespace) width = c === "\t" ? width + 4 - (width % 4) : width + 1;
	return width;
}

function indent(line: string): number {
	return columns(/^[ \t]*/.exec(line)?.[0] ?? "");
}

/** CommonMark's blank line: spaces and tabs only (a no-break space is content, and ends a list item). */
export function blank(line: string): boolean {
	return /^[ \t]*$/.test(line);
}

/** The line without the quote and list markers in front of its content. */
export function stripContainer(line: string): string {
	const prefix = CONTAINER.exec(line)?.[0];
	return prefix ? line.slice(prefix.length) : line;
}

export function fenceOpener(line: string): FenceLine | null {
	const m = OPENER.exec(line);
	if (!m) return null;
	const [, prefix = "", run = "", info = ""] = m;
	if (run.startsWith("`") && info.includes("`")) return null;
	return { indent: columns(prefix), prefix, run, info };
}

/** The opener written back with only a language a highlighter owns (else `text`); an unsafe one is noted. */
export function safeOpener(prefix: string, run: string, info: string, note: Note): string {
	const language = info.trim().split(/\s+/, 1)[0] ?? "";
	if (language === "") return `${prefix}${run}`;
	if (SAFE_LANGUAGES.has(language.toLowerCase())) return `${prefix}${run}${language}`;
	note("code", language.toLowerCase().replace(/[^a-z0-9_+.-]/g, "").slice(0, 40) || null);
	return `${prefix}${run}text`;
}

/**
 * Splits lines into prose and code. A fence opens as CommonMark says (up to 3 columns of indent, no backtick in a
 * backtick fence's info) and closes as early as any renderer might: a fence line of the same character, or a line
 * indented less than the opener (the end of the list item that held it). Once renderers may disagree (a close only
 * some of them make, a fence opened inside a list item or a quote), every later line is prose: made inert, it is
 * harmless whether a renderer shows it as prose or as code, and its fence lines still lose unsafe languages.
 * `open`: the last fence is still open (so far every renderer reads what follows as code).
 */
export function classify(lines: string[], note: Note): { lines: Line[]; open: boolean } {
	const out: Line[] = [];
	let fence: FenceLine | null = null;
	const proseFrom = (at: number) => {
		for (const text of lines.slice(at)) out.push({ text, kind: "prose" });
		return { lines: out, open: false };
	};
	for (let at = 0; at < lines.length; at++) {
		const line = lines[at] ?? "";
		if (fence) {
			const closer = CLOSER.exec(line)?.[1];
			if (closer?.startsWith(fence.run[0] ?? "`")) {
				out.push({ text: line, kind: "code" });
				// Shorter, or indented 4 columns or more, it closes nothing in CommonMark; indented less than the
				// opener, it may end the list item holding the fence and open a new fence itself.
				const width = indent(line);
				if (closer.length < fence.run.length || width < fence.indent || width > 3) return proseFrom(at + 1);
				fence = null;
				continue;
			}
			if (blank(line) || indent(line) >= fence.indent) {
				out.push({ text: line, kind: "code" });
				continue;
			}
			return proseFrom(at);
		}
		const opener = fenceOpener(line);
		if (opener && opener.indent <= 3) {
			out.push({ text: safeOpener(opener.prefix, opener.run, opener.info, note), kind: "code" });
			fence = opener;
		} else if (fenceOpener(stripContainer(line).replace(/^[ \t]+/, "")) !== null) {
			return proseFrom(at);
		} else {
			out.push({ text: line, kind: "prose" });
		}
	}
	return { lines: out, open: fence !== null };
}
