/** Random hostile Markdown through the neutraliser: whatever comes in, and at every streamed prefix, nothing live comes out. */
import { describe, expect, it } from "vitest";
import { neutraliseAnswer } from "../src/answer/neutralise";
import { live } from "./markdownLive";

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
	// The sidecar's fuzz fragments (tests/generate/markdown_oracle.py): fences of every length and indent, labels
	// over lines, schemes hidden by references, definitions, bare addresses, containers, and line ends.
	"````", "`````", "~~~~", " ```", "   ```", "  ~~~", "```dataviewjs\n", "````\n", "\n```\n",
	"![a\nb](", "![a [b] c](", "[a\nb]", "\\]", "\\[", "\\!", "](", "][", "]: ", "]:\n", "[^1]",
	"&#x68;ttps://evil.example/x", "&#104;ttps:", "javascript&colon;alert(1)", "https&#58;//evil.example", "&Tab;",
	"&colon;", "&#x2F;&#x2F;evil.example", "https\\://evil.example", "<ht\ttps://evil.example>", "&amp;", "&nope;",
	"[x]: https://evil.example/d", "[x]: //evil.example", "[x]:\n  <//evil.example/a b>", "[x]", "[a][x]", "[x][]",
	"<img src=//evil.example/p>", "<div>", "</div>", "<!-- c -->", "<?php", "<a href='//evil.example'>",
	"<mailto:a@evil.example>", "WWW.EVIL.EXAMPLE/x", "mailto:a@evil.example", "ftp://evil.example", "obsidian://open?v=x",
	"data:image/png;base64,AA", "(//evil.example)", "(<https://evil.example>)", "(x.md)", "(a.png)", '(Note.md "t")',
	"1. ", "10. ", "* ", "-|-", "| a |", "\r", "\r\n", "\u00a0", "\u0000", " \n", "\\\n", "  \n", "${x}", "=",
	"- ```\n", "> ```\n", "  ```\n", "\n  ~~~dataview\n", "\n\t", "*", "_", "&#x5B;", "&#93;", "#", "==",
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
		expect(live("a\r<b>")).not.toEqual([]);
		for (const bare of ["WWW.evil.example", "mailto:a@evil.example", "see //evil.example"]) expect(live(bare)).not.toEqual([]);
		expect(live("https\\://evil.example and \\//evil.example")).toEqual([]); // an escape stops linkify-it
	});

	it("nothing live in the final text (3000 inputs)", () => {
		const next = random(20261129);
		for (let n = 0; n < 3000; n++) {
			const input = hostile(next);
			expect({ input, problems: live(neutraliseAnswer(input).text) }).toEqual({ input, problems: [] });
		}
	});

	it("neutralising the output again changes nothing (3000 inputs)", () => {
		const next = random(20261130);
		for (let n = 0; n < 3000; n++) {
			const input = hostile(next);
			const once = neutraliseAnswer(input).text;
			expect({ input, again: neutraliseAnswer(once).text }).toEqual({ input, again: once });
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
