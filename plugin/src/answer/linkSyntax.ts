/** CommonMark's inline link syntax, read as a renderer reads it: a link's `(destination "title")` tail, a `[reference]`, backtick runs. */

/** ASCII punctuation: what a backslash can escape. */
export const PUNCTUATION = /[!-/:-@[-`{-~]/;

/** The end (exclusive) of an inline link's `(destination "title")` starting at `at`, or null when there is none. */
export function inlineTail(text: string, at: number): { end: number; destination: string } | null {
	if (text[at] !== "(") return null;
	let i = skipSpace(text, at + 1);
	let destination: string;
	if (text[i] === "<") {
		const close = findAngleEnd(text, i + 1);
		if (close === -1) return null;
		destination = text.slice(i, close + 1);
		i = close + 1;
	} else {
		const start = i;
		let depth = 0;
		for (; i < text.length; i++) {
			const c = text[i] ?? "";
			if (c === "\\" && PUNCTUATION.test(text[i + 1] ?? "")) {
				i += 1;
			} else if (c === "(") {
				depth += 1;
			} else if (c === ")") {
				if (depth === 0) break;
				depth -= 1;
			} else if (c.charCodeAt(0) <= 0x20 || c === "\u007f") {
				break;
			}
		}
		if (depth !== 0) return null;
		destination = text.slice(start, i);
	}
	const afterDestination = i;
	i = skipSpace(text, i);
	if (text[i] === ")") return { end: i + 1, destination };
	if (i === afterDestination) return null; // a title needs space before it
	const open = text[i];
	const close = open === "(" ? ")" : open === '"' || open === "'" ? open : null;
	if (close === null) return null;
	for (i += 1; i < text.length; i++) {
		const c = text[i];
		if (c === "\\") i += 1;
		else if (c === close) break;
		else if (open === "(" && c === "(") return null;
		else if (c === "\n" && text[i + 1] === "\n") return null;
	}
	if (i >= text.length) return null;
	i = skipSpace(text, i + 1);
	return text[i] === ")" ? { end: i + 1, destination } : null;
}

/** Spaces and tabs, and at most one line break. */
function skipSpace(text: string, at: number): number {
	let i = at;
	let newlines = 0;
	for (; i < text.length; i++) {
		const c = text[i];
		if (c === "\n") {
			newlines += 1;
			if (newlines > 1) break;
		} else if (c !== " " && c !== "\t") {
			break;
		}
	}
	return i;
}

function findAngleEnd(text: string, from: number): number {
	for (let i = from; i < text.length; i++) {
		const c = text[i];
		if (c === "\\") i += 1;
		else if (c === ">") return i;
		else if (c === "<" || c === "\n") return -1;
	}
	return -1;
}

/** A `[label]` right at `at` (no nested brackets), as a reference; its end, or -1. */
export function referenceEnd(text: string, at: number): number {
	if (text[at] !== "[") return -1;
	for (let i = at + 1; i < text.length && i - at < 1000; i++) {
		const c = text[i];
		if (c === "\\") i += 1;
		else if (c === "[") return -1;
		else if (c === "]") return i + 1;
	}
	return -1;
}

/** The end of the backtick run starting at `at`. */
export function runEnd(text: string, at: number, char = "`"): number {
	let i = at;
	while (text[i] === char) i += 1;
	return i;
}

/** Where the run of `length` backticks that closes a code span opened at `from` starts, on the same line; -1 if none. */
export function closingRun(text: string, from: number, length: number): number {
	for (let i = from; i < text.length && text[i] !== "\n"; ) {
		if (text[i] !== "`") {
			i += 1;
			continue;
		}
		const end = runEnd(text, i);
		if (end - i === length) return i;
		i = end;
	}
	return -1;
}
