import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, normaliseUrl, parseExclusions, parseSettings, parseTopK, portOf, serveArgs } from "../src/settings";

describe("parseSettings", () => {
	it.each([
		["nothing saved", null, {}],
		["not an object", "garbage", {}],
		["an array", [1, 2], {}],
	])("falls back to the defaults for %s", (_name, raw, extra) => {
		expect(parseSettings(raw)).toEqual({ ...DEFAULT_SETTINGS, ...extra });
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
			exclusions: ["Private/", "  ", "Private/", "Templates/"],
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
			exclusions: ["Private/", "Templates/"],
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
		["http://127.0.0.1:27123", "http://127.0.0.1:27123"],
		["  http://127.0.0.1:27123///  ", "http://127.0.0.1:27123"],
		["HTTP://LOCALHOST:1", "http://localhost:1"],
		["http://[::1]:27123", "http://[::1]:27123"],
		["http://127.0.0.1:27123/api", null],
		["127.0.0.1:27123", null],
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
		["Private/\n\n Templates/ \r\nPrivate/", ["Private/", "Templates/"]],
		[["a", 1, "b"], ["a", "b"]],
		[undefined, []],
	])("parseExclusions(%j)", (value, expected) => {
		expect(parseExclusions(value)).toEqual(expected);
	});

	it.each([
		["http://127.0.0.1:27123", 27123],
		["http://localhost", 80],
		["https://localhost", 443],
	])("portOf(%s) = %i", (url, port) => {
		expect(portOf(url)).toBe(port);
	});
});

describe("serveArgs", () => {
	it("passes the vault, port, models and each exclusion as separate arguments", () => {
		const settings = parseSettings({
			sidecarUrl: "http://127.0.0.1:28000",
			embedModel: "all-minilm",
			chatModel: "llama3.2:3b",
			exclusions: ["Private notes/", "*.tmp.md"],
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
			"--exclude",
			"Private notes/",
			"--exclude",
			"*.tmp.md",
		]);
	});

	it("adds --data-dir only when one is set", () => {
		expect(serveArgs(parseSettings({ dataDir: "/d" }), "/v").slice(-2)).toEqual(["--data-dir", "/d"]);
		expect(serveArgs(parseSettings({}), "/v")).not.toContain("--data-dir");
	});
});
