import { describe, expect, it } from "vitest";
import {
	canExplain,
	type ExplainAction,
	type ExplainState,
	explainRequest,
	factorFacts,
	formatIndexedAt,
	idleExplain,
	legRows,
	outcomeFacts,
	pickOrder,
	rankedPaths,
	reasonFact,
	reduceExplain,
	statusFacts,
} from "../src/answer/explain";
import { DASH } from "../src/answer/inspect";
import type { Turn, TurnStatus } from "../src/answer/state";
import { parse } from "../src/sidecar/schema";
import { type ExplainBody, explainBody, parseAskEvent, type RetrievalEvent } from "../src/sidecar/wire";
import { abstainLines, askLines, fixtureJson } from "./helpers";

const golden = (): ExplainBody => parse(explainBody, fixtureJson("explain.json"));
const answered = () => parseAskEvent(askLines()[0]) as RetrievalEvent;
const abstained = () => parseAskEvent(abstainLines()[0]) as RetrievalEvent;

function turn(status: TurnStatus, retrieval: RetrievalEvent | null, request: Turn["request"] = { question: "q", k: 6 }): Turn {
	return { id: 1, question: "q", context: null, request, status, retrieval, text: "", done: null, error: null };
}

const excluded = (): ExplainBody => ({
	...golden(),
	note: {
		path: "Private/Diary.md",
		title: null,
		status: "excluded",
		indexed_at: null,
		chunks: 0,
		reason: { rule: "exclude-glob", detail: "Excluded from the index by the pattern `Private/**`." },
	},
	best: { dense: null, keyword: null, fused: null },
	terms: { matched: [], missing: ["kodi", "mainten"] },
	sent: false,
	factors: [],
});

describe("the explain request for a turn", () => {
	it.each([
		[
			"a follow-up: the rewritten query that was searched, not the words typed",
			turn("done", answered(), { question: "and which port does it use?", k: 8 }),
			{ question: "Which port does the Postgres container use?", note: "Homelab/Kodi.md", k: 8 },
		],
		[
			"an abstained turn, with its folder filter",
			turn("done", abstained(), { question: "x", k: 6, filters: { folder: "Homelab" } }),
			{ question: abstained().query, note: "Homelab/Kodi.md", k: 6, filters: { folder: "Homelab" } },
		],
		["empty filters left out", turn("done", answered(), { question: "x", filters: {} }), { question: answered().query, note: "Homelab/Kodi.md" }],
		["a turn still streaming", turn("streaming", answered()), null],
		["a turn that failed", turn("error", answered()), null],
		["a turn that retrieved nothing yet", turn("done", null), null],
	])("%s", (_name, t, expected) => {
		expect(explainRequest(t, "Homelab/Kodi.md")).toEqual(expected);
		expect(canExplain(t)).toBe(expected !== null);
	});
});

describe("explanation rows", () => {
	it.each([
		["2026-12-01T10:00:00+00:00", "2026-12-01 10:00 UTC"],
		["2026-12-01T11:30:00+01:00", "2026-12-01 10:30 UTC"],
		["yesterday", "yesterday"],
	])("indexed_at %s reads %s", (iso, shown) => {
		expect(formatIndexedAt(iso)).toBe(shown);
	});

	it.each([
		[
			"an indexed note: chunks and when",
			golden().note,
			[
				{ label: "Status", value: "Indexed" },
				{ label: "Chunks", value: "1" },
				{ label: "Indexed at", value: "2026-12-01 10:00 UTC" },
			],
		],
		[
			"an indexed note of unknown age",
			{ ...golden().note, indexed_at: null },
			[
				{ label: "Status", value: "Indexed" },
				{ label: "Chunks", value: "1" },
				{ label: "Indexed at", value: "Unknown" },
			],
		],
		["an excluded note", excluded().note, [{ label: "Status", value: "Excluded from the index" }]],
		["a note that failed to parse", { ...excluded().note, status: "failed" as const }, [{ label: "Status", value: "Could not be indexed" }]],
		["a note not indexed yet", { ...excluded().note, status: "not_indexed" as const }, [{ label: "Status", value: "Not indexed yet" }]],
		["a missing note", { ...excluded().note, status: "missing" as const }, [{ label: "Status", value: "No such note" }]],
	])("status of %s", (_name, note, expected) => {
		expect(statusFacts(note)).toEqual(expected);
	});

	it.each([
		["an indexed note has none", golden().note, null],
		[
			"an excluded note: the rule, never its text",
			excluded().note,
			{ label: "Reason", value: "Excluded from the index by the pattern `Private/**`. (exclude-glob)" },
		],
		[
			"a missing note",
			{ ...excluded().note, status: "missing" as const, reason: { rule: "no-such-note", detail: "No note at this path." } },
			{ label: "Reason", value: "No note at this path. (no-such-note)" },
		],
	])("reason of %s", (_name, note, expected) => {
		expect(reasonFact(note)).toEqual(expected);
	});

	it.each([
		[
			"the golden note: each leg's best chunk, cosine and BM25 to 3 places, fused to 4",
			golden(),
			[
				["Dense", "On-call", "8", "0.116", "4–6", true],
				["Keyword", "On-call", "7", "0.616", "4–6", true],
				["Fused", "On-call", "8", "0.3320", "4–6", true],
			],
		],
		[
			"a leg that missed the note, and a chunk before the first heading",
			{
				...golden(),
				best: { ...golden().best, keyword: null, dense: { ...golden().best.dense!, heading_path: [] } },
			},
			[
				["Dense", "(before the first heading)", "8", "0.116", "4–6", true],
				["Keyword", "Not found", DASH, DASH, DASH, false],
				["Fused", "On-call", "8", "0.3320", "4–6", true],
			],
		],
	])("legs of %s", (_name, body, expected) => {
		expect(legRows(body).map((r) => [r.leg, r.where, r.rank, r.score, r.lines, r.found])).toEqual(expected);
	});

	it.each([
		[
			"the golden note: not sent, the cut and the terms",
			golden(),
			[
				["Sent to the model", "No"],
				["Cut line", "Top 8 asked for, 6 sent; last score inside 0.3320"],
				["Matched terms", "mainten"],
				["Missing terms", "kodi"],
			],
		],
		[
			"an abstained search with dense search off",
			{ ...golden(), sent: false, dense_available: false, cut: { k: 6, sent: 0, last_score: null }, terms: { matched: [], missing: [] } },
			[
				["Sent to the model", "No"],
				["Cut line", "Top 6 asked for, 0 sent"],
				["Matched terms", "None"],
				["Missing terms", "None"],
				["Semantic search", "Off: keyword search only"],
			],
		],
		[
			"a sent note",
			{ ...golden(), sent: true, terms: { matched: ["kodi", "mainten"], missing: [] } },
			[
				["Sent to the model", "Yes"],
				["Cut line", "Top 8 asked for, 6 sent; last score inside 0.3320"],
				["Matched terms", "kodi, mainten"],
				["Missing terms", "None"],
			],
		],
	])("outcome of %s", (_name, body, expected) => {
		expect(outcomeFacts(body).map((f) => [f.label, f.value])).toEqual(expected);
	});

	it.each([
		["date scope", { kind: "date_scope", detail: "the date phrase limited the search" }, ["Date scope", "The date phrase limited the search"]],
		["filter", { kind: "filter", detail: "outside the folder Homelab" }, ["Filter", "Outside the folder Homelab"]],
		["abstention", { kind: "abstention", detail: "nothing was sent" }, ["Relevance decision", "Nothing was sent"]],
		[
			"boilerplate",
			{
				kind: "boilerplate",
				detail: "Its best passage (Kappa Architecture › This note in GitHub) is 100% template lines the vault repeats across its notes, so it ranks below passages that say more of their own.",
			},
			[
				"Boilerplate",
				"Its best passage (Kappa Architecture › This note in GitHub) is 100% template lines the vault repeats across its notes, so it ranks below passages that say more of their own.",
			],
		],
		["rerank", { kind: "rerank", detail: "moved from 2nd to 7th" }, ["Reranker", "Moved from 2nd to 7th"]],
		["prompt budget", { kind: "prompt_budget", detail: "dropped for length" }, ["Prompt budget", "Dropped for length"]],
		["dense off", { kind: "dense_off", detail: "no embeddings" }, ["Semantic search off", "No embeddings"]],
		["privacy", { kind: "privacy", detail: "a chunk is hidden" }, ["Privacy", "A chunk is hidden"]],
		["a kind this version does not know", { kind: "graph", detail: "x" }, ["graph", "X"]],
	])("factor %s", (_name, factor, expected) => {
		expect(factorFacts([factor]).map((f) => [f.label, f.value])).toEqual([expected]);
	});
});

describe("explain state per turn", () => {
	const body = golden();
	const loading: ExplainState = { kind: "loading", note: "a.md", seq: 2 };
	it.each<[string, ExplainState, ExplainAction, ExplainState]>([
		["start", idleExplain, { type: "start", note: "a.md", seq: 2 }, loading],
		["a new pick replaces an explanation", { kind: "done", note: "b.md", seq: 1, body }, { type: "start", note: "a.md", seq: 2 }, loading],
		["its result", loading, { type: "result", seq: 2, body }, { kind: "done", note: "a.md", seq: 2, body }],
		[
			"its failure, as the sidecar wrote it",
			loading,
			{ type: "failed", seq: 2, code: "bad_request", message: "note must be vault-relative" },
			{ kind: "error", note: "a.md", seq: 2, code: "bad_request", message: "note must be vault-relative" },
		],
		["a stale result (an earlier pick) is dropped", loading, { type: "result", seq: 1, body }, loading],
		["a stale failure is dropped", loading, { type: "failed", seq: 1, code: "x", message: "y" }, loading],
		["a result after a reset (the turn was asked again) is dropped", idleExplain, { type: "result", seq: 2, body }, idleExplain],
		["reset", loading, { type: "reset" }, idleExplain],
	])("%s", (_name, state, action, expected) => {
		expect(reduceExplain(state, action)).toEqual(expected);
	});
});

describe("the note picker's order", () => {
	const vault = ["Recipes/Rye bread.md", "Homelab/Postgres.md", "Homelab/Kodi.md", "Journal/2026-11-02.md"];
	it.each([
		["nothing ranked: by path", [], ["Homelab/Kodi.md", "Homelab/Postgres.md", "Journal/2026-11-02.md", "Recipes/Rye bread.md"]],
		[
			"ranked notes first, once each, in rank order",
			["Journal/2026-11-02.md", "Homelab/Kodi.md", "Journal/2026-11-02.md"],
			["Journal/2026-11-02.md", "Homelab/Kodi.md", "Homelab/Postgres.md", "Recipes/Rye bread.md"],
		],
		["a ranked path the vault no longer has is left out", ["Gone.md", "Homelab/Postgres.md"], ["Homelab/Postgres.md", "Homelab/Kodi.md", "Journal/2026-11-02.md", "Recipes/Rye bread.md"]],
	])("%s", (_name, ranked, expected) => {
		expect(pickOrder(vault, ranked)).toEqual(expected);
	});

	it("ranks a turn's sources, then the closest notes of an abstained one", () => {
		expect(rankedPaths(turn("done", answered()))).toEqual(answered().sources.map((s) => s.path));
		const r = abstained();
		expect(rankedPaths(turn("done", r))).toEqual([...r.sources, ...r.closest].map((s) => s.path));
		expect(rankedPaths(turn("waiting", null))).toEqual([]);
	});
});
