/**
 * The holes fuzzing the sidecar's port (backend/askvault/safety/answer.py) against markdown-it found,
 * closed here too: every case of the shared corpus (the sidecar's edge cases and one case per hole among them) read
 * strictly, at every streamed prefix; then the streaming cases and the building blocks.
 */
import { describe, expect, it } from "vitest";
import { holdPoint, neutraliseAnswer } from "../src/answer/neutralise";
import { asCode, decodeDestination, encodeDestination, isExternal } from "../src/answer/urls";
import { asPlugin, neutraliseCases } from "./helpers";
import { live } from "./markdownLive";

const EVIL = "https://evil.example/p.png?q=secret";
const GONE = "[image removed: evil.example]";
const kinds = (text: string) => neutraliseAnswer(text).neutralised.map((n) => `${n.kind}:${n.target ?? "-"}`);

/** Every case: inert (strictly read), stable when neutralised again, and inert at every streamed prefix. */
function expectInert(input: string, text: string): void {
	expect(live(text)).toEqual([]);
	expect(neutraliseAnswer(text).text).toBe(text);
	for (let end = 1; end <= input.length; end++) {
		const prefix = input.slice(0, end);
		expect({ prefix, problems: live(neutraliseAnswer(prefix, { streaming: true }).text) }).toEqual({ prefix, problems: [] });
	}
}

describe("the shared corpus (tests/fixtures/neutralise/cases.json), holes included: inert when read strictly", () => {
	it.each(neutraliseCases().map((c) => [c.id, c] as const))("%s", (_id, c) => {
		const safe = neutraliseAnswer(c.input);
		expect(safe.text).toBe(asPlugin(c.inert));
		expect(kinds(c.input)).toEqual(c.neutralised);
		expectInert(c.input, safe.text);
	});
});

describe("streaming after the fixes", () => {
	it.each([
		["CRLF counts once", "a\r\n[r]: https://evil", "a\n", 17],
		["a definition whose label closed on the last line", "x\n\n[a\nb]: https://evil", "x\n\n", 19],
		["a definition label still open", "x\n\n[a\nb", "x\n\n", 4],
		["a fence ambiguity shows what follows as prose, inert", `\`\`\`\`\n\`\`\`\n![x](${EVIL}) and`, `\`\`\`\`\n\`\`\`\n${GONE} and`, 0],
	])("%s", (_name, input, shown, held) => {
		const safe = neutraliseAnswer(input, { streaming: true });
		expect(safe.text).toBe(asPlugin(shown));
		expect(safe.held).toBe(held);
	});

	it("holdPoint reads normalised text", () => {
		expect(holdPoint("a\n[r]: https://evil")).toBe(2);
	});

	it("the same answer neutralised again notes the same things (paragraphs are remembered, notes replayed)", () => {
		const answer = `See ![x](${EVIL}) and [a](https://evil.example).\n\nMore www.evil.example`;
		expect(kinds(answer)).toEqual(["image:evil.example", "link:evil.example", "link:www.evil.example"]);
		expect(kinds(answer)).toEqual(["image:evil.example", "link:evil.example", "link:www.evil.example"]);
	});
});

describe("urls: the fixes' building blocks", () => {
	it("decodes any HTML5 named reference, and only with its semicolon", () => {
		expect(decodeDestination("&NewLine;a&DoubleRightArrow;b&fjlig;")).toBe("a\u21d2bfj");
		expect(decodeDestination("&amp;&AMP;")).toBe("&&");
		expect(decodeDestination("&notit;")).toBeNull();
		expect(isExternal("https&colon;//evil.example")).toBe(true);
		expect(isExternal("&nope;")).toBe(true);
	});

	it("encodes what linkify could read in a local destination shown as text", () => {
		expect(encodeDestination("a:b//c WWW.d")).toBe("a%3Ab/%2Fc%20%77ww.d"); // as the sidecar writes it
	});

	it("percent-encodes what could end a code span early in Obsidian", () => {
		expect(asCode("https://e.example/$a%%b]]c`d")).toBe("`https://e.example/%24a%25%25b%5D%5Dcd`");
	});
});
