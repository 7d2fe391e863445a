/** A strict reader of neutralised Markdown for the tests: what a CommonMark renderer would still make live. */
import { SAFE_LANGUAGES } from "../src/answer/neutralise";
import { isExternal } from "../src/answer/urls";

/**
 * What a CommonMark renderer would make live in `md`: tags, external link or image destinations, bare URLs,
 * embeds and runnable code languages, found outside fenced blocks and code spans (read strictly, as CommonMark does).
 */
export function live(md: string): string[] {
	const problems: string[] = [];
	let fence: { char: string; length: number } | null = null;
	// Renderers read CR and CRLF as line ends too.
	for (const line of md.split(/\r\n?|\n/)) {
		if (fence) {
			const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
			if (close?.startsWith(fence.char) && close.length >= fence.length) fence = null;
			continue;
		}
		const fenceLine = /^(?:[ \t]*(?:>|[-+*][ \t]|\d{1,9}[.)][ \t]))*[ \t]*(`{3,}|~{3,})(.*)$/.exec(line);
		const info = fenceLine && !(fenceLine[1]?.startsWith("`") && fenceLine[2]?.includes("`")) ? fenceLine[2]?.trim().split(/\s+/)[0] : "";
		if (info && !SAFE_LANGUAGES.has(info.toLowerCase())) problems.push(`code ${info}`);
		const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
		if (open?.[1] && !(open[1].startsWith("`") && (open[2] ?? "").includes("`"))) {
			fence = { char: open[1][0] ?? "`", length: open[1].length };
			continue;
		}
		const prose = withoutCode(line);
		if (prose.includes("<")) problems.push(`tag in ${JSON.stringify(line)}`);
		for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]*)/g)) if (isExternal(m[1] ?? "")) problems.push(`destination ${m[1]}`);
		// What GFM and linkify-it link bare: `scheme://`, `www.` (any case), `//host`, `mailto:`.
		if (/(?<![A-Za-z0-9])(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|www\.|(?<![:/\ue000])\/\/(?=[^\s/])|mailto:)/i.test(prose)) problems.push(`URL in ${JSON.stringify(line)}`);
		if (prose.includes("![[")) problems.push(`embed in ${JSON.stringify(line)}`);
	}
	return problems;
}

/** A line with its escapes and code spans blanked (escapes to U+E000 pairs), read left to right as CommonMark does (no escapes inside code). */
function withoutCode(line: string): string {
	let out = "";
	for (let i = 0; i < line.length; ) {
		if (line[i] === "\\" && /[!-/:-@[-`{-~]/.test(line[i + 1] ?? "")) {
			// Not a space: an escape just before `//` stops linkify-it as it stops a scheme (`https\://`).
			out += "\ue000\ue000";
			i += 2;
			continue;
		}
		if (line[i] !== "`") {
			out += line[i];
			i += 1;
			continue;
		}
		let end = i;
		while (line[end] === "`") end += 1;
		const run = end - i;
		let close = -1;
		for (let j = end; j < line.length; ) {
			let k = j;
			while (line[k] === "`") k += 1;
			if (k - j === run) {
				close = j;
				break;
			}
			j = k > j ? k : j + 1;
		}
		out += close === -1 ? " ".repeat(run) : " ";
		i = close === -1 ? end : close + run;
	}
	return out;
}
