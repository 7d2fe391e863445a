/** The status bar while the sidecar indexes: phase, percentage, time left, and what search can do meanwhile. */
import { describe, expect, it } from "vitest";
import { describeIndexing, formatEta, meanwhile, percent } from "../src/answer/progress";
import { describeConnection } from "../src/answer/status";
import { applyServerEvent, initialConnection } from "../src/sidecar/events";
import { parse } from "../src/sidecar/schema";
import { statusBody, type StatusBody } from "../src/sidecar/wire";
import { fixtureJson } from "./helpers";

/** The golden status, indexing: the embed phase of a big first index (docs/api.md's example). */
function indexing(progress: Partial<NonNullable<StatusBody["index"]["progress"]>> = {}, index: Partial<StatusBody["index"]> = {}): StatusBody {
	const s = parse(statusBody, fixtureJson("status.json"));
	s.models.chat.problem = null;
	s.index = {
		...s.index,
		state: "indexing",
		dense: "building",
		dense_coverage: 0.12,
		progress: { phase: "embed", done: 120_000, total: 1_000_000, rate_per_s: 85.3, eta_s: 10_316, ...progress },
		...index,
	};
	return s;
}

describe("formatEta", () => {
	it.each([
		[null, ""],
		[-1, ""],
		[Number.NaN, ""],
		[0, "less than a minute left"],
		[59, "less than a minute left"],
		[60, "about 1 min left"],
		[180, "about 3 min left"],
		[209, "about 3 min left"],
		[3569, "about 59 min left"],
		[3600, "about 1 h left"],
		[10_316, "about 2 h 52 min left"],
		[90_000, "about 25 h left"],
	])("formatEta(%s) = %j", (seconds, text) => {
		expect(formatEta(seconds)).toBe(text);
	});
});

describe("percent", () => {
	it.each([
		[0, 10, 0],
		[42, 100, 42],
		[999, 1000, 99],
		[1000, 1000, 100],
		[1200, 1000, 100],
		[5, 0, null],
	])("percent(%i, %i) = %s", (done, total, expected) => {
		expect(percent(done, total)).toBe(expected);
	});
});

describe("describeIndexing", () => {
	it.each([
		["embedding with an estimate", {}, { state: "indexing" as const, done: 120_000, total: 1_000_000 }, "embedding 12% · about 2 h 52 min left"],
		["notes, a few minutes left", { phase: "notes", done: 42, total: 100, eta_s: 170 }, { state: "indexing" as const, done: 42, total: 100 }, "indexing 42% · about 3 min left"],
		["no estimate yet", { phase: "notes", done: 3, total: 100, eta_s: null, rate_per_s: null }, { state: "indexing" as const, done: 3, total: 100 }, "indexing 3%"],
		["the stream is ahead of the last poll (same phase)", { phase: "notes", done: 40, total: 100, eta_s: 200 }, { state: "indexing" as const, done: 55, total: 100 }, "indexing 55% · about 3 min left"],
		["the stream is in another phase than the poll", { phase: "notes", done: 40, total: 100, eta_s: 200 }, { state: "indexing" as const, done: 7, total: 900 }, "indexing 40% · about 3 min left"],
		["a scan with no total", { phase: "scan", done: 0, total: 0, eta_s: null }, { state: "indexing" as const, done: 0, total: 0 }, "scanning"],
		["a phase this plugin does not know", { phase: "rerank", done: 1, total: 4, eta_s: 30 }, { state: "indexing" as const, done: 1, total: 4 }, "indexing 25% · less than a minute left"],
	])("%s", (_name, progress, index, text) => {
		expect(describeIndexing(index, indexing(progress)).text).toBe(text);
	});

	it("falls back to the stream's counts from a sidecar that reports no progress", () => {
		const s = indexing();
		s.index.progress = null;
		expect(describeIndexing({ state: "indexing", done: 3, total: 10 }, s).text).toBe("indexing 3/10");
		expect(describeIndexing({ state: "indexing", done: 3, total: 10 }, null).text).toBe("indexing 3/10");
	});

	it("says in the tooltip what is counted and that keyword search answers meanwhile", () => {
		const { detail } = describeIndexing({ state: "indexing", done: 120_000, total: 1_000_000 }, indexing());
		expect(detail).toEqual([
			"Embedding: 120,000 of 1,000,000 chunks (85 per second).",
			"Keyword search answers meanwhile, from the notes indexed so far.",
			"Semantic search covers 12% of the chunks so far.",
		]);
	});
});

describe("meanwhile", () => {
	it.each([
		["ready", { dense: "ready" as const, dense_graph: "none" as const }, []],
		["semantic search still building, coverage unknown", { dense: "building" as const, dense_coverage: null }, ["Semantic search is still being built."]],
		["a search graph building", { dense: "ready" as const, dense_graph: "building" as const }, ["A search graph is being built in the background; searches stay exact meanwhile."]],
	])("%s", (_name, index, lines) => {
		expect(meanwhile(indexing({}, { state: "idle", progress: null, ...index }))).toEqual(lines);
	});
});

describe("the status bar line", () => {
	it("shows progress and time left while indexing, and says ready when done", () => {
		let state = applyServerEvent(initialConnection, { type: "status", status: indexing({ phase: "notes", done: 42, total: 100, eta_s: 180 }) });
		expect(describeConnection(state)).toMatchObject({ text: "Ask Vault: indexing 42% · about 3 min left", level: "busy" });
		expect(describeConnection(state).detail).toContain("Keyword search answers meanwhile");
		state = applyServerEvent(state, { type: "index", state: "idle", done: 100, total: 100 });
		expect(describeConnection(state).text).toBe("Ask Vault: ready · built-in all-MiniLM-L6-v2, 384-d");
	});
});
