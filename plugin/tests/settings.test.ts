import { describe, expect, it } from "vitest";
import {
	DEFAULT_PORT,
	DEFAULT_SETTINGS,
	describeSourceCount,
	normaliseUrl,
	parseSettings,
	parseTopK,
	portOf,
	PROMPT_MAX_SOURCES,
	serveArgs,
} from "../src/settings";

describe("parseSettings", () => {
	it.each([
		["nothing saved", null, {}],
		["not an object", "garbage", {}],
		["an array", [1, 2], {}],
	])("falls back to the defaults for %s", (_name, raw, extra) => {
		expect(parseSettings(raw)).toEqual({ ...DEFAULT_SETTINGS, ...extra });
	});

	it("loads data saved with the dropped Excluded folders setting, and forgets it", () => {
		const s = parseSettings({ topK: 5, exclusions: ["Private/", "Templates/"] });
		expect(s).toEqual({ ...DEFAULT_SETTINGS, topK: 5 });
		expect(Object.keys(s)).not.toContain("exclusions");
		expect(serveArgs(s, "/v")).not.toContain("--exclude");
	});

	it("keeps valid fields and drops unknown ones, including any token", () => {
		const s = parseSettings({
			sidecarUrl: "http://localhost:9000/",
			autoStart: true,
			command: " /opt/askvault/bin/askvault ",
			dataDir: "/tmp/d",
			embedModel: "all-minilm",
			chatModel: "qwen2.5:7b",
			topK: 12,
			indexDocuments: false,
			folders: "Docs=/d",
			token: "must-not-survive",
			extra: 1,
		});
		expect(s).toEqual({
			sidecarUrl: "http://localhost:9000",
			autoStart: true,
			command: "/opt/askvault/bin/askvault",
			dataDir: "/tmp/d",
			embedModel: "all-minilm",
			chatModel: "qwen2.5:7b",
			topK: 12,
			indexDocuments: false,
			folders: "Docs=/d",
		});
		expect(Object.keys(s)).not.toContain("token");
	});

	it.each([
		["sidecarUrl", "not a url", DEFAULT_SETTINGS.sidecarUrl],
		["sidecarUrl", "ftp://x", DEFAULT_SETTINGS.sidecarUrl],
		["autoStart", "yes", DEFAULT_SETTINGS.autoStart],
		["command", "   ", DEFAULT_SETTINGS.command],
		["chatModel", 42, DEFAULT_SETTINGS.chatModel],
		["topK", "many", DEFAULT_SETTINGS.topK],
	])("ignores a bad %s (%j)", (key, value, expected) => {
		expect(parseSettings({ [key]: value })[key as keyof typeof DEFAULT_SETTINGS]).toEqual(expected);
	});
});

describe("field parsers", () => {
	it.each([
		["http://127.0.0.1:27582", "http://127.0.0.1:27582"],
		["  http://127.0.0.1:27582///  ", "http://127.0.0.1:27582"],
		["HTTP://LOCALHOST:1", "http://localhost:1"],
		["http://[::1]:27582", "http://[::1]:27582"],
		["http://127.0.0.1:27582/api", null],
		["127.0.0.1:27582", null],
		["", null],
	])("normaliseUrl(%j) = %j", (text, expected) => {
		expect(normaliseUrl(text)).toBe(expected);
	});

	it.each([
		[8, 8],
		["20", 20],
		[0, 1],
		[500, 50],
		[7.6, 8],
		[Number.NaN, null],
		["", null],
		[null, null],
	])("parseTopK(%j) = %j", (value, expected) => {
		expect(parseTopK(value)).toBe(expected);
	});

	it.each([
		[1, "Ranks 1 chunk for each question; all of them can be sent to the model."],
		[PROMPT_MAX_SOURCES, `Ranks ${PROMPT_MAX_SOURCES} chunks for each question; all of them can be sent to the model.`],
		[
			8,
			`Ranks 8 chunks for each question; the answer's prompt holds at most ${PROMPT_MAX_SOURCES}, so the best ${PROMPT_MAX_SOURCES} are sent to the model and the rest show in the inspector.`,
		],
	])("describeSourceCount(%i) states the prompt's cap", (k, text) => {
		expect(describeSourceCount(k)).toBe(text);
	});

	it("states the cap the sidecar's prompt uses (PromptParams.max_sources)", () => {
		expect(PROMPT_MAX_SOURCES).toBe(6);
		expect(describeSourceCount(4, 3)).toContain("at most 3");
	});

	it.each([
		["http://127.0.0.1:27582", 27582],
		["http://localhost", 80],
		["https://localhost", 443],
	])("portOf(%s) = %i", (url, port) => {
		expect(portOf(url)).toBe(port);
	});
});

describe("serveArgs", () => {
	it("names no embedder unless one is set, so the sidecar uses the index's own (built in at first)", () => {
		expect(DEFAULT_SETTINGS.embedModel).toBe("");
		expect(serveArgs(parseSettings({}), "/v")).toEqual(["serve", "--vault", "/v", "--chat-model", "llama3.2:3b"]);
	});

	it("reads the former default URL (27123, Obsidian Local REST API's port) as today's default", () => {
		expect(parseSettings({ sidecarUrl: "http://127.0.0.1:27123" }).sidecarUrl).toBe(`http://127.0.0.1:${DEFAULT_PORT}`);
		expect(parseSettings({ sidecarUrl: "http://127.0.0.1:27125" }).sidecarUrl).toBe("http://127.0.0.1:27125");
	});

	it("leaves the default port to the sidecar, which takes a free one when another program holds it", () => {
		expect(DEFAULT_PORT).toBe(27582);
		expect(serveArgs(parseSettings({ sidecarUrl: "http://127.0.0.1:27582" }), "/v")).not.toContain("--port");
		expect(serveArgs(parseSettings({ sidecarUrl: "http://127.0.0.1:27125" }), "/v").slice(3, 5)).toEqual(["--port", "27125"]);
	});

	it("passes the vault, port and models as separate arguments", () => {
		const settings = parseSettings({
			sidecarUrl: "http://127.0.0.1:28000",
			embedModel: "all-minilm",
			chatModel: "llama3.2:3b",
		});
		expect(serveArgs(settings, "/home/me/My Vault")).toEqual([
			"serve",
			"--vault",
			"/home/me/My Vault",
			"--port",
			"28000",
			"--embed-model",
			"all-minilm",
			"--chat-model",
			"llama3.2:3b",
		]);
	});

	it("adds --data-dir only when one is set", () => {
		expect(serveArgs(parseSettings({ dataDir: "/d" }), "/v").slice(-2)).toEqual(["--data-dir", "/d"]);
		expect(serveArgs(parseSettings({}), "/v")).not.toContain("--data-dir");
	});

	it("each folder beside the vault is one --source, blank lines dropped", () => {
		const settings = parseSettings({ folders: "Docs=/home/me/Docs\n\n  Work notes=C:\\Work  \r\n" });
		expect(serveArgs(settings, "/v").slice(-4)).toEqual(["--source", "Docs=/home/me/Docs", "--source", "Work notes=C:\\Work"]);
		expect(serveArgs(parseSettings({}), "/v")).not.toContain("--source");
		expect(parseSettings({ folders: 3 }).folders).toBe("");
	});

	it("PDFs and canvases are indexed unless switched off", () => {
		expect(parseSettings({}).indexDocuments).toBe(true);
		expect(parseSettings({ indexDocuments: "no" }).indexDocuments).toBe(true);
		expect(serveArgs(parseSettings({}), "/v")).not.toContain("--no-pdfs");
		expect(serveArgs(parseSettings({ indexDocuments: false }), "/v").slice(-2)).toEqual(["--no-pdfs", "--no-canvases"]);
	});
});
