/**
 * The holes fuzzing the sidecar's port (backend/askvault/generate/answer_safety.py) against markdown-it found,
 * closed here too: the sidecar's own edge-case table with the same expected outputs, then one case per hole.
 */
import { describe, expect, it } from "vitest";
import { holdPoint, neutraliseAnswer } from "../src/answer/neutralise";
import { asCode, decodeDestination, encodeDestination, isExternal } from "../src/answer/urls";
import { live } from "./markdownLive";

const EVIL = "https://evil.example/p.png?q=secret";
const GONE = "[image removed: evil.example]";
const kinds = (text: string) => neutraliseAnswer(text).neutralised.map((n) => `${n.kind}:${n.target ?? "-"}`);

/** The sidecar writes `[image removed: host]` and escapes it only where a neighbour could link it; the plugin always does. */
const asPlugin = (sidecar: string) => sidecar.replace(/\\?\[(image removed(?:: [^\]\\]*)?)\\?\]/g, "\\[$1\\]");

/** Every case: inert (strictly read), stable when neutralised again, and inert at every streamed prefix. */
function expectInert(input: string, text: string): void {
	expect(live(text)).toEqual([]);
	expect(neutraliseAnswer(text).text).toBe(text);
	for (let end = 1; end <= input.length; end++) {
		const prefix = input.slice(0, end);
		expect({ prefix, problems: live(neutraliseAnswer(prefix, { streaming: true }).text) }).toEqual({ prefix, problems: [] });
	}
}

describe("the sidecar's edge cases (tests/generate/test_answer_safety.py EDGE_CASES), same outputs", () => {
	it.each([
		["hex-reference-scheme", "![x](&#x68;ttps://evil.example/p.png)", GONE, ["image:evil.example"]],
		["named-reference-colon", "[x](javascript&colon;alert(1))", "x (`javascript&colon;alert(1)`)", ["link:javascript"]],
		["named-reference-colon-image", "![x](javascript&colon;alert(1))", "[image removed: javascript]", ["image:javascript"]],
		["nested-brackets-in-link-text", "[a [b] c](https://evil.example)", "a [b] c (`https://evil.example`)", ["link:evil.example"]],
		["deeply-nested-alt", `![a [b [c]] d](${EVIL})`, GONE, ["image:evil.example"]],
		["unknown-reference-external", "[x](&nope;evil.example)", "x (`&nope;evil.example`)", ["link:-"]],
		["marker-escaped-before-paren", `![x](${EVIL})(//evil.example/x)`, "\\[image removed: evil.example\\]\\(`//evil.example/x`)", ["image:evil.example", "link:evil.example"]],
		["marker-host-without-www", "![x](https://www.evil.example/p.png)", GONE, ["image:www.evil.example"]],
		["bare-protocol-relative", "see //evil.example/x now", "see `//evil.example/x` now", ["link:evil.example"]],
		["bare-mailto", "mail mailto:a@evil.example now", "mail `mailto:a@evil.example` now", ["link:mailto"]],
		["definition-label-over-lines", "[a\nb]: //evil.example/x\n\n[a b]", "\n[a b]", ["definition:evil.example"]],
		["definition-in-angle-brackets", "[r]: <//evil.example/a b>\n\n[r]", "\n[r]", ["definition:evil.example"]],
		["shorter-fence-closes-only-for-some", `\`\`\`\`\n\`\`\`\n![x](${EVIL})\n\`\`\`\`\n<img src=x>`, `\`\`\`\`\n\`\`\`\n${GONE}\n\`\`\`\`\n&lt;img src=x>`, ["image:evil.example", "html:-"]],
		["dedented-closer-may-open", `- a\n  \`\`\`\n  code\n\`\`\`\n![x](${EVIL})`, `- a\n  \`\`\`\n  code\n\`\`\`\n${GONE}`, ["image:evil.example"]],
		["fence-line-read-as-code-span", `x\n\t- \`\`\`\n![x](${EVIL}) \`\`\` <img>`, `x\n\t- \`\`\`\n${GONE} \\\`\\\`\\\` &lt;img>`, ["image:evil.example", "html:img"]],
		["carriage-return-is-a-line-end", `a\r![x](${EVIL})`, `a\n${GONE}`, ["image:evil.example"]],
		["bang-before-embed-link", "!![x](Note.md)", "\\![x](Note.md)", ["embed:-"]],
		["embed-of-url", "![[https://evil.example/x]]", "[[`https://evil.example/x`]]", ["embed:-", "link:evil.example"]],
		["url-inside-local-path", "[x](a/https://evil.example)", "[x](a/https%3A/%2Fevil.example)", []],
	])("%s", (_id, input, sidecar, expectedKinds) => {
		const safe = neutraliseAnswer(input);
		expect(safe.text).toBe(asPlugin(sidecar));
		expect(kinds(input)).toEqual(expectedKinds);
		expectInert(input, safe.text);
	});
});

describe("each hole, closed as the sidecar closes it", () => {
	it.each([
		// 2. Line ends and blank lines as renderers read them.
		["CRLF is one line end", `a\r\n![x](${EVIL})`, `a\n${GONE}`, ["image:evil.example"]],
		["NUL reads as U+FFFD", "a\u0000b [x](https://evil.example)", "a\ufffdb x (`https://evil.example`)", ["link:evil.example"]],
		["a no-break space is no blank line: it ends the list item's fence", `- a\n  \`\`\`\n\u00a0\n  ![x](${EVIL})`, `- a\n  \`\`\`\n\u00a0\n  ${GONE}`, ["image:evil.example"]],
		// 3. Once renderers could disagree about a fence, every later line is prose.
		["a closer indented 4 columns closes nothing", `\`\`\`\n    \`\`\`\n<img src=x>\n\`\`\`\n![x](${EVIL})`, `\`\`\`\n    \`\`\`\n&lt;img src=x>\n\`\`\`\n${GONE}`, ["html:-", "image:evil.example"]],
		["a fence opened in a list item", `- \`\`\`\n  \`\`\`\n  ![x](${EVIL})`, `- \`\`\`\n  \`\`\`\n  ${GONE}`, ["image:evil.example"]],
		["a fence opened in a list item, its language made safe", `- \`\`\`dataview\n![x](${EVIL})\n- \`\`\``, `- \`\`\`text\n${GONE}\n- \`\`\``, ["code:dataview", "image:evil.example"]],
		["a bare fence read as paragraph text: no query, no code span", "x\n> ```\n= this.file.name `", "x\n> ```\n\\= this.file.name \\`", []],
		// 4. Definitions.
		["a label over three lines", "[a\nb\nc]: https://evil.example\n\n[a b c]", "\n[a b c]", ["definition:evil.example"]],
		["a dropped definition cannot join its neighbours into a link", "[a\n[r]: https://evil.example\n](https://evil.example)", "]\\(`https://evil.example`)", ["definition:evil.example", "link:evil.example"]],
		// 5. Bare addresses linkify-it links.
		["upper-case WWW.", "go to WWW.EVIL.EXAMPLE/x now", "go to `WWW.EVIL.EXAMPLE/x` now", ["link:www.evil.example"]],
		["upper-case MAILTO:", "MAILTO:a@evil.example", "`MAILTO:a@evil.example`", ["link:mailto"]],
		// 6. Spellings no renderer reads differently.
		["$ and %% in a URL shown as code", "see https://evil.example/$x%%y now", "see `https://evil.example/%24x%25%25y` now", ["link:evil.example"]],
		["]] in a URL shown as code", "[[a <https://evil.example/x]]y>", "[[a `https://evil.example/x%5D%5Dy`", ["link:evil.example"]],
		["www. in a local destination", "[x](www.evil.example/a.md)", "[x](%77ww.evil.example/a.md)", []],
		["the marker drops www. from the host shown", "![x](//www.evil.example/p.png)", GONE, ["image:www.evil.example"]],
		// 7. Embeds and parentheses.
		["a ! before a wiki embed", "!![[Secret]]", "\\![[Secret]]", ["embed:-"]],
		["an embed made a link inside link text: the outer link cannot form", "[![d](e.md)](f.md)", "[[d](e.md)]\\(f.md)", ["embed:-"]],
		["an embed link inside link text that holds a link", "[a [b](c.md) ![d](e.md)](f.md)", "[a [b](c.md) [d](e.md)]\\(f.md)", ["embed:-"]],
		["a ( after the marker", `![x](${EVIL})(a)`, "\\[image removed: evil.example\\]\\(a)", ["image:evil.example"]],
		["a ( after a local link stays", "[x](a.md)(b)", "[x](a.md)(b)", []],
		["an empty label's code keeps apart from a backtick", "[](https://evil.example)`", "`https://evil.example` \\`", ["link:evil.example"]],
		// 9. The HTML5 entity table.
		["an entity the old table lacked", "[x](a&hyphen;b.md)", "[x](a\u2010b.md)", []],
		["an unknown entity still counts as external", "[x](a&nope;b.md)", "x (`a&nope;b.md`)", ["link:-"]],
		["a surrogate reference reads as U+FFFD", "[x](a&#xD800;.md)", "[x](a\ufffd.md)", []],
	])("%s", (_name, input, expected, expectedKinds) => {
		const safe = neutraliseAnswer(input);
		expect(safe.text).toBe(asPlugin(expected));
		expect(kinds(input)).toEqual(expectedKinds);
		expectInert(input, safe.text);
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
