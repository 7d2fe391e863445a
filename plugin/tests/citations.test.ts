import { describe, expect, it } from "vitest";
import {
	cleanHeading,
	headingTrail,
	linktextFor,
	openTarget,
	placeLabel,
	type Segment,
	segmentCitations,
	sentSources,
	sourceByNumber,
} from "../src/answer/citations";
import { parseAskEvent, type RetrievalEvent } from "../src/sidecar/wire";
import { askLines } from "./helpers";

const known = (...ns: number[]) => (n: number) => ns.includes(n);

describe("segmentCitations", () => {
	it.each<[string, string, number[], Segment[]]>([
		["plain text", "No citations here.", [1], [{ kind: "text", text: "No citations here." }]],
		[
			"one marker",
			"Port 5433 [1].",
			[1],
			[
				{ kind: "text", text: "Port 5433 " },
				{ kind: "cite", n: 1, text: "[1]" },
				{ kind: "text", text: "." },
			],
		],
		[
			"adjacent markers",
			"A [1][2]",
			[1, 2],
			[
				{ kind: "text", text: "A " },
				{ kind: "cite", n: 1, text: "[1]" },
				{ kind: "cite", n: 2, text: "[2]" },
			],
		],
		[
			"a list marker",
			"B [1, 2]",
			[1, 2],
			[
				{ kind: "text", text: "B " },
				{ kind: "cite", n: 1, text: "[1]" },
				{ kind: "cite", n: 2, text: "[2]" },
			],
		],
		["an unknown number stays text", "C [7].", [1], [{ kind: "text", text: "C [7]." }]],
		["a list with one unknown stays text", "D [1, 7]", [1], [{ kind: "text", text: "D [1, 7]" }]],
		["a Markdown link is not a citation", "[1](http://x)", [1], [{ kind: "text", text: "[1](http://x)" }]],
		["a footnote is not a citation", "E[^1]", [1], [{ kind: "text", text: "E[^1]" }]],
		["words in brackets", "[note] [a1]", [1], [{ kind: "text", text: "[note] [a1]" }]],
		["an unterminated marker mid-stream", "F [1", [1], [{ kind: "text", text: "F [1" }]],
		["only a marker", "[3]", [3], [{ kind: "cite", n: 3, text: "[3]" }]],
	])("%s", (_name, text, ns, expected) => {
		expect(segmentCitations(text, known(...ns))).toEqual(expected);
	});

	it("joins back to the original text when nothing is known", () => {
		const text = "A [1] b [2, 3] c";
		const segs = segmentCitations(text, () => false);
		expect(segs.map((s) => s.text).join("")).toBe(text);
	});
});

describe("sources and link targets", () => {
	const retrieval = parseAskEvent(askLines()[0]) as RetrievalEvent;

	it("lists the sent sources in prompt order, numbered as in the prompt", () => {
		const sent = sentSources(retrieval);
		expect(sent.map((s) => s.id)).toEqual(retrieval.sent);
		sent.forEach((s, i) => expect(s.n).toBe(i + 1));
		for (const s of sent) expect(sourceByNumber(retrieval, s.n!)).toBe(s);
		expect(sourceByNumber(retrieval, 999)).toBeUndefined();
		expect(sentSources(null)).toEqual([]);
	});

	it.each([
		["nested headings use the innermost", { path: "A/B.md", heading_path: ["B", "Network"], start_line: 5 }, "A/B.md#Network"],
		["no heading opens the note", { path: "A.md", heading_path: [], start_line: 1 }, "A.md"],
		["link specials are dropped", { path: "A.md", heading_path: ["C# [draft] | v2 ^x"], start_line: 1 }, "A.md#C draft v2 x"],
		["a heading of specials only opens the note", { path: "A.md", heading_path: ["###"], start_line: 3 }, "A.md"],
	])("linktext: %s", (_name, loc, expected) => {
		expect(linktextFor(loc)).toBe(expected);
	});

	it("heading trail", () => {
		expect(headingTrail({ path: "A/B.md", heading_path: ["B", "C"], start_line: 1 })).toBe("A/B.md › B › C");
		expect(cleanHeading("  a   b ")).toBe("a b");
	});

	it.each([
		["heading present in the note", ["Intro", "Network"], { linktext: "P.md#Network", line: null }],
		["headings unknown", null, { linktext: "P.md#Network", line: null }],
		["heading renamed since indexing: open at the line", ["Intro"], { linktext: "P.md", line: 11 }],
	])("openTarget: %s", (_name, headings, expected) => {
		expect(openTarget({ path: "P.md", heading_path: ["P", "Network"], start_line: 12 }, headings)).toEqual(expected);
	});

	it.each([
		["a PDF's chunk opens at its page", { path: "Docs/Boiler.pdf", heading_path: ["Page 2"], start_line: 5, page: 2 }, "Docs/Boiler.pdf#page=2"],
		["no page: the heading, as for a note", { path: "Board.canvas", heading_path: ["Ideas"], start_line: 3, page: null }, "Board.canvas#Ideas"],
	])("page links: %s", (_name, loc, expected) => {
		expect(linktextFor(loc)).toBe(expected);
		expect(openTarget(loc, null)).toEqual({ linktext: expected, line: null });
	});

	it("a PDF's page wins over a heading the note does not have, and its place reads as a page", () => {
		const pdf = { path: "B.pdf", heading_path: ["Page 7"], start_line: 40, end_line: 52, page: 7 };
		expect(openTarget(pdf, [])).toEqual({ linktext: "B.pdf#page=7", line: null });
		expect(placeLabel(pdf)).toBe("page 7");
		expect(placeLabel({ ...pdf, page: null })).toBe("lines 40–52");
		expect(placeLabel({ path: "A.md", heading_path: [], start_line: 1, end_line: 3 })).toBe("lines 1–3");
		expect(placeLabel({ path: "Board.canvas", heading_path: [], start_line: 1, end_line: 3 })).toBe("canvas");
	});

	it("openTarget without a heading opens at the chunk's first line", () => {
		expect(openTarget({ path: "P.md", heading_path: [], start_line: 1 }, null)).toEqual({ linktext: "P.md", line: 0 });
	});
});
