/** Random hostile Markdown through the neutraliser: whatever comes in, and at every streamed prefix, nothing live comes out. */
import { describe, expect, it } from "vitest";
import { neutraliseAnswer, SAFE_LANGUAGES } from "../src/answer/neutralise";
import { isExternal } from "../src/answer/urls";

/**
 * What a CommonMark renderer would make live in `md`: tags, external link or image destinations, bare URLs,
 * embeds and runnable code languages, found outside fenced blocks and code spans (read strictly, as CommonMark does).
 */
function live(md: string): string[] {
	const problems: string[] = [];
	let fence: { char: string; length: number } | null = null;
	for (const line of md.split("\n")) {
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
		if (/(?<![A-Za-z0-9])(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|www\.)/.test(prose)) problems.push(`URL in ${JSON.stringify(line)}`);
		if (prose.includes("![[")) problems.push(`embed in ${JSON.stringify(line)}`);
	}
	return problems;
}

/** A line with its escapes and code spans blanked, read left to right as CommonMark does (no escapes inside code). */
function withoutCode(line: string): string {
	let out = "";
	for (let i = 0; i < line.length; ) {
		if (line[i] === "\\" && /[!-/:-@[-`{-~]/.test(line[i + 1] ?? "")) {
			out += "  ";
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

/** A small seeded generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const ATOMS = [
	"![", "[", "]", "(", ")", "https://evil.example/p.png", "//evil.example/p", "`", "``", "```", "\n", "\n\n", " ", "x",
	"<", ">", "img src=", "\\", "$", "%%", "[[", "]]", "|", "---", "> ", "- ", "    ", "&#58;", '"t"', "'", "~~~",
	"dataview", "!", ":", "[r]: ", "<https://evil.example>", "www.evil.example", "\t", "= x", "[1]", "javascript:x",
];

function hostile(next: () => number): string {
	const length = 3 + Math.floor(next() * 25);
	let text = "";
	for (let i = 0; i < length; i++) text += ATOMS[Math.floor(next() * ATOMS.length)] ?? "";
	return text;
}

describe("the neutraliser against random hostile Markdown", () => {
	it("the checker itself sees live constructs in raw input", () => {
		expect(live("![x](https://evil.example/p.png)")).not.toEqual([]);
		expect(live("<img src=x>")).not.toEqual([]);
		expect(live("```dataview\nLIST\n```")).not.toEqual([]);
		expect(live("see https://evil.example")).not.toEqual([]);
		expect(live("[[a]] `https://x` [b](c.md)")).toEqual([]);
	});

	it("nothing live in the final text (3000 inputs)", () => {
		const next = random(20261129);
		for (let n = 0; n < 3000; n++) {
			const input = hostile(next);
			expect({ input, problems: live(neutraliseAnswer(input).text) }).toEqual({ input, problems: [] });
		}
	});

	it("nothing live at any streamed prefix (300 inputs)", () => {
		const next = random(7);
		for (let n = 0; n < 300; n++) {
			const input = hostile(next);
			for (let end = 1; end <= input.length; end++) {
				const prefix = input.slice(0, end);
				expect({ prefix, problems: live(neutraliseAnswer(prefix, { streaming: true }).text) }).toEqual({ prefix, problems: [] });
			}
		}
	});
});
