/** The API version check: which side to update, and no request the other side could misread. */
import { describe, expect, it } from "vitest";
import { describeConnection } from "../src/answer/status";
import { SidecarClient, SidecarError } from "../src/sidecar/client";
import { disconnected, initialConnection } from "../src/sidecar/events";
import { checkApiVersion } from "../src/sidecar/version";
import { API_VERSION } from "../src/sidecar/wire";
import { bytes, collect, fakeFetch, fixtureJson, jsonResponse, streamResponse } from "./helpers";

const golden = () => fixtureJson("status.json") as Record<string, unknown>;
const withVersion = (v: unknown) => ({ ...golden(), api_version: v });

describe("checkApiVersion", () => {
	it.each([
		["the same version", API_VERSION, null],
		["a newer sidecar", API_VERSION + 1, "plugin"],
		["an older sidecar", API_VERSION - 1, "sidecar"],
		["no version at all", undefined, "sidecar"],
		["a version that is not a number", String(API_VERSION), "sidecar"],
	])("%s → update %s", (_name, version, update) => {
		const mismatch = checkApiVersion(version === undefined ? {} : { api_version: version });
		expect(mismatch?.update ?? null).toBe(update);
	});

	it.each([
		[2, 1, "speaks API version 2, newer than this plugin's 1: update the Ask Vault plugin"],
		[1, 2, "speaks API version 1, older than this plugin's 2: update askvault"],
	])("says which side to update (sidecar %i, plugin %i)", (theirs, ours, words) => {
		expect(checkApiVersion({ api_version: theirs }, ours)?.message).toContain(words);
	});

	it("the golden status speaks this plugin's version", () => {
		expect(checkApiVersion(golden())).toBeNull();
	});
});

describe("SidecarClient against another API version", () => {
	const BASE = "http://127.0.0.1:27582";

	function setup(status: () => unknown) {
		const fake = fakeFetch((call) => {
			const path = new URL(call.url).pathname;
			if (path === "/api/status") return jsonResponse(status());
			if (path === "/api/events") {
				return streamResponse([bytes(`${JSON.stringify({ type: "status", status: status() })}\n`)]);
			}
			return jsonResponse(fixtureJson("search.json"));
		});
		let baseUrl = BASE;
		const client = new SidecarClient(() => ({ baseUrl, token: "t" }), fake.fetch);
		return { client, calls: fake.calls, moveTo: (url: string) => (baseUrl = url) };
	}

	const paths = (calls: { url: string }[]) => calls.map((c) => new URL(c.url).pathname);

	it("status() refuses a newer sidecar, and nothing else is sent to it until it matches", async () => {
		let version = API_VERSION + 1;
		const { client, calls } = setup(() => withVersion(version));
		const error = await client.status().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(SidecarError);
		expect(error).toMatchObject({ kind: "incompatible", code: "update_plugin" });

		await expect(client.search({ query: "kodi" })).rejects.toMatchObject({ kind: "incompatible" });
		expect(paths(calls)).toEqual(["/api/status"]);

		version = API_VERSION;
		await client.status();
		await client.search({ query: "kodi" });
		expect(paths(calls)).toEqual(["/api/status", "/api/status", "/api/search"]);
	});

	it("the event stream's first status is checked before its shape (an older sidecar: update askvault)", async () => {
		// A body of another version need not have this version's shape: the version is read first.
		const { client } = setup(() => ({ api_version: API_VERSION - 1, something: "else" }));
		await expect(collect(client.events())).rejects.toMatchObject({ kind: "incompatible", code: "update_sidecar" });
	});

	it("another sidecar (another URL) is not held to what the first one spoke", async () => {
		const { client, calls, moveTo } = setup(() => withVersion(API_VERSION + 1));
		await client.status().catch(() => undefined);
		moveTo("http://127.0.0.1:28000");
		await client.search({ query: "kodi" });
		expect(calls.at(-1)?.url).toBe("http://127.0.0.1:28000/api/search");
	});

	it.each([
		["update_plugin", "Ask Vault: update the plugin"],
		["update_sidecar", "Ask Vault: update askvault"],
	])("the status bar names the side to update (%s)", (code, text) => {
		const error = new SidecarError("incompatible", code, "The Ask Vault sidecar speaks API version 9…");
		expect(describeConnection(disconnected(initialConnection, error))).toEqual({
			text,
			detail: "The Ask Vault sidecar speaks API version 9…",
			level: "down",
		});
	});
});
