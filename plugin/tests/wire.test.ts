import { describe, expect, it } from "vitest";
import { arr, literal, nullable, num, obj, parse, str, withDefault } from "../src/sidecar/schema";
import {
	chunkBody,
	errorBody,
	explainBody,
	parseAskEvent,
	parseServerEvent,
	relatedBody,
	searchBody,
	statusBody,
} from "../src/sidecar/wire";
import { askLines, fixtureJson, refusedAt } from "./helpers";

describe("golden bodies validate against the wire types", () => {
	it("status.json", () => {
		const raw = fixtureJson("status.json") as { vault: { name: string } };
		const status = parse(statusBody, raw);
		expect(status.api_version).toBe(1);
		expect(status.vault.name).toBe(raw.vault.name);
		expect(["idle", "indexing"]).toContain(status.index.state);
		for (const m of [status.models.embed, status.models.chat]) {
			expect(typeof m.ok).toBe("boolean");
			expect(m.problem === null || typeof m.problem === "string").toBe(true);
		}
	});

	it("status.json reports the secrets redacted in the index, by kind and by note, never a secret", () => {
		const raw = fixtureJson("status.json") as { index: { redactions: unknown } };
		const redactions = parse(statusBody, raw).index.redactions;
		expect(redactions).toEqual(raw.index.redactions);
		expect(redactions?.total).toBe(3);
		expect(redactions?.by_kind).toEqual({ "aws-access-key": 1, password: 2 });
		const byKind = Object.values(redactions?.by_kind ?? {}).reduce((a, b) => a + b, 0);
		expect(byKind).toBe(redactions?.total);
		for (const note of redactions?.notes ?? []) expect(note.path.endsWith(".md")).toBe(true);
	});

	it("ask.ndjson: tokens are raw model text, done.answer the inert form, with what was neutralised", () => {
		const events = askLines().map((l) => parseAskEvent(l));
		const raw = events.map((e) => (e?.type === "token" ? e.text : "")).join("");
		const done = events[events.length - 1];
		if (done?.type !== "done") throw new Error("the golden stream ends with done");
		expect(raw).toContain("![port map](https://evil.example/ports.png?q=secret)");
		expect(done.sanitized_answer).toBe(true);
		expect(done.neutralised).toEqual([{ kind: "image", target: "evil.example" }]);
		expect(done.answer).toContain("[image removed: evil.example]");
		expect(done.answer).not.toContain("https://");
		expect(done.answer).not.toContain("secret");
	});

	it("search.json keeps ranks 1-based or null", () => {
		const search = parse(searchBody, fixtureJson("search.json"));
		for (const r of search.results) {
			for (const rank of [r.dense_rank, r.keyword_rank]) expect(rank === null || rank >= 1).toBe(true);
			expect(r.start_line).toBeLessThanOrEqual(r.end_line);
		}
	});

	it("chunk.json and error.json", () => {
		const chunk = parse(chunkBody, fixtureJson("chunk.json"));
		expect(chunk.path.length).toBeGreaterThan(0);
		const error = parse(errorBody, fixtureJson("error.json"));
		expect(error.error.code.length).toBeGreaterThan(0);
	});

	it("ask.ndjson: one retrieval, tokens, then exactly one done or error", () => {
		const events = askLines().map((l) => parseAskEvent(l));
		expect(events.every((e) => e !== null)).toBe(true);
		const types = events.map((e) => e?.type);
		expect(types[0]).toBe("retrieval");
		expect(types.filter((t) => t === "retrieval")).toHaveLength(1);
		const last = types[types.length - 1];
		expect(["done", "error"]).toContain(last);
		expect(types.slice(1, -1).every((t) => t === "token")).toBe(true);
		const retrieval = events[0];
		if (retrieval?.type !== "retrieval") throw new Error("no retrieval");
		const sentIds = retrieval.sources.filter((s) => s.sent).map((s) => s.id);
		expect([...retrieval.sent].sort()).toEqual([...sentIds].sort());
		for (const s of retrieval.sources) expect(s.sent ? s.n !== null : s.n === null).toBe(true);
	});

	it("ask_error.ndjson: retrieval, then the one error that ends the stream, with its code and no partial text", () => {
		const events = askLines("ask_error.ndjson").map((l) => parseAskEvent(l));
		expect(events.map((e) => e?.type)).toEqual(["retrieval", "error"]);
		const error = events[1];
		if (error?.type !== "error") throw new Error("the golden error stream ends with error");
		expect(error.code).toBe("model_missing");
		expect(error.message).toContain("ollama pull");
		expect(error.partial).toBe("");
	});

	it("explain.json: legs are whole entries or null, the terms split the query's, the summary comes first", () => {
		const raw = fixtureJson("explain.json") as { relevance: unknown };
		const body = parse(explainBody, raw);
		expect(body.note.status).toBe("indexed");
		expect(body.note.reason).toBeNull();
		expect(body.summary.length).toBeGreaterThan(0);
		for (const leg of [body.best.dense, body.best.keyword, body.best.fused]) {
			if (leg === null) continue;
			expect(leg.rank).toBeGreaterThanOrEqual(1);
			expect(leg.start_line).toBeLessThanOrEqual(leg.end_line);
		}
		expect(body.terms.matched.filter((t) => body.terms.missing.includes(t))).toEqual([]);
		expect(body.cut.sent).toBeLessThanOrEqual(body.cut.k);
		expect(body.relevance).toEqual(raw.relevance);
		if (body.sent) expect(body.best.fused?.rank ?? Infinity).toBeLessThanOrEqual(body.cut.k);
	});

	it("related.json: best first, never the note itself, each with its closest passage", () => {
		const body = parse(relatedBody, fixtureJson("related.json"));
		expect(["dense", "keyword"]).toContain(body.method);
		expect(body.results.length).toBeGreaterThan(0);
		expect(body.results.map((r) => r.path)).not.toContain(body.path);
		const scores = body.results.map((r) => r.score);
		expect([...scores].sort((a, b) => b - a)).toEqual(scores);
		for (const r of body.results) {
			expect(r.passage.start_line).toBeLessThanOrEqual(r.passage.end_line);
			expect(r.passage.text.length).toBeGreaterThan(0);
		}
	});

	it("the status event wraps a status body", () => {
		const event = parseServerEvent({ type: "status", status: fixtureJson("status.json") });
		expect(event?.type).toBe("status");
	});
});

describe("event parsing", () => {
	it.each([
		["unknown ask event types are skipped", () => parseAskEvent({ type: "future_thing", x: 1 }), null],
		["unknown server event types are skipped", () => parseServerEvent({ type: "later" }), null],
		["heartbeat", () => parseServerEvent({ type: "heartbeat" }), { type: "heartbeat" }],
		[
			"index progress",
			() => parseServerEvent({ type: "index", state: "indexing", done: 3, total: 9 }),
			{ type: "index", state: "indexing", done: 3, total: 9 },
		],
		[
			"done from an older sidecar (no sanitized_answer, no neutralised, no done_reason)",
			() => parseAskEvent({ type: "done", answer: "a", citations: [], no_results: false, metrics: {} }),
			{
				type: "done",
				answer: "a",
				citations: [],
				invalid_citations: [],
				no_results: false,
				sanitized_answer: null,
				neutralised: [],
				done_reason: null,
				truncated: false,
				metrics: {
					embed_ms: null,
					retrieval_ms: null,
					first_token_ms: null,
					generation_ms: null,
					total_ms: null,
					prompt_tokens: null,
					completion_tokens: null,
				},
			},
		],
		[
			"a neutralised kind this version does not know, and a null target",
			() =>
				(parseAskEvent({ type: "done", answer: "", citations: [], no_results: false, metrics: {}, neutralised: [{ kind: "later", target: null }] }) as {
					neutralised: unknown;
				}).neutralised,
			[{ kind: "later", target: null }],
		],
		[
			"a status from an older sidecar has no redactions",
			() => {
				const raw = structuredClone(fixtureJson("status.json")) as { index: Record<string, unknown> };
				delete raw.index.redactions;
				return parse(statusBody, raw).index.redactions;
			},
			null,
		],
		[
			"error without partial",
			() => parseAskEvent({ type: "error", code: "model_missing", message: "m" }),
			{ type: "error", code: "model_missing", message: "m", partial: "" },
		],
	])("%s", (_name, run, expected) => {
		expect(run()).toEqual(expected);
	});

	it.each([
		["a token without text", { type: "token" }, "text"],
		["a done with a string citation", { type: "done", answer: "", citations: ["1"], no_results: false, metrics: {} }, "citations[0]"],
		["an index event with a bad state", { type: "index", state: "busy", done: 1, total: 1 }, "state"],
		["no type at all", { text: "x" }, "type"],
		[
			"a done whose sanitized_answer is not a boolean",
			{ type: "done", answer: "", citations: [], no_results: false, metrics: {}, sanitized_answer: "yes" },
			"sanitized_answer",
		],
		[
			"a neutralised item without a kind",
			{ type: "done", answer: "", citations: [], no_results: false, metrics: {}, neutralised: [{ target: "x" }] },
			"neutralised[0].kind",
		],
	])("rejects %s, naming the field", (_name, value, path) => {
		expect(refusedAt(() => (path === "state" ? parseServerEvent(value) : parseAskEvent(value)))).toContain(path);
	});
});

/** The golden explain body as loose JSON, for tests that break or drop its fields. */
interface LooseExplain {
	[field: string]: unknown;
	note: Record<string, unknown>;
	best: Record<string, Record<string, unknown> | null>;
	terms: Record<string, unknown>;
	cut: Record<string, unknown>;
	factors?: unknown;
	relevance?: unknown;
}

/** The golden explain body with `edit` applied (a deep copy: the fixture stays as read). */
function explainWith(edit: (body: LooseExplain) => void): unknown {
	const body = structuredClone(fixtureJson("explain.json")) as LooseExplain;
	edit(body);
	return body;
}

describe("explain and related bodies", () => {
	it.each([
		[
			"an excluded note: no title, no legs, its reason",
			() =>
				parse(
					explainBody,
					explainWith((b) => {
						b.note = {
							path: "Private/Diary.md",
							title: null,
							status: "excluded",
							indexed_at: null,
							chunks: 0,
							reason: { rule: "exclude-glob", detail: "Excluded by the pattern `Private/**`." },
						};
						b.best = { dense: null, keyword: null, fused: null };
					}),
				).note.reason,
			{ rule: "exclude-glob", detail: "Excluded by the pattern `Private/**`." },
		],
		[
			"unknown fields and an unknown factor kind are kept readable",
			() =>
				parse(
					explainBody,
					explainWith((b) => {
						b.later = 1;
						b.factors = [{ kind: "later_kind", detail: "d", extra: true }];
					}),
				).factors,
			[{ kind: "later_kind", detail: "d" }],
		],
		["no factors and no relevance from a sidecar that omits them", () => {
			const body = parse(explainBody, explainWith((b) => {
				delete b.factors;
				delete b.relevance;
			}));
			return [body.factors, body.relevance];
		}, [[], null]],
		[
			"a keyword related body without timings",
			() => parse(relatedBody, { path: "a.md", method: "keyword", results: [] }),
			{ path: "a.md", method: "keyword", results: [], timings_ms: {} },
		],
	])("reads %s", (_name, run, expected) => {
		expect(run()).toEqual(expected);
	});

	it.each([
		["a leg with a null rank (the whole entry must be null)", explainWith((b) => (b.best.keyword!.rank = null)), "best.keyword.rank"],
		["an unknown note status", explainWith((b) => (b.note.status = "gone")), "note.status"],
		["a reason without a rule", explainWith((b) => (b.note.reason = { detail: "x" })), "note.reason.rule"],
		["terms that are not a list", explainWith((b) => (b.terms.missing = "kodi")), "terms.missing"],
		["a cut without k", explainWith((b) => delete b.cut.k), "cut.k"],
	])("explain rejects %s, naming the field", (_name, value, path) => {
		expect(refusedAt(() => parse(explainBody, value))).toBe(path);
	});

	it.each([
		["an unknown method", { path: "a.md", method: "graph", results: [] }, "method"],
		[
			"a result without a passage",
			{ path: "a.md", method: "dense", results: [{ path: "b.md", title: "b", score: 0.5 }] },
			"results[0].passage",
		],
	])("related rejects %s, naming the field", (_name, value, path) => {
		expect(refusedAt(() => parse(relatedBody, value))).toBe(path);
	});
});

describe("schema combinators", () => {
	const s = obj({ a: str, b: nullable(num), c: withDefault(arr(literal("x", "y")), []) });
	it.each([
		["full", { a: "1", b: 2, c: ["x"] }, { a: "1", b: 2, c: ["x"] }],
		["defaults and nulls", { a: "1" }, { a: "1", b: null, c: [] }],
		["drops unknown fields", { a: "1", b: null, extra: true }, { a: "1", b: null, c: [] }],
	])("accepts %s", (_name, value, expected) => {
		expect(parse(s, value)).toEqual(expected);
	});
	it.each([
		["wrong type", { a: 1 }, "a"],
		["bad literal", { a: "1", c: ["z"] }, "c[0]"],
		["NaN is not a number", { a: "1", b: Number.NaN }, "b"],
		["array instead of object", [], ""],
	])("rejects %s", (_name, value, path) => {
		expect(refusedAt(() => parse(s, value))).toBe(path);
	});
});
