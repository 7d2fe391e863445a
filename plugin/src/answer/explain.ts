/** "Why not…?": the explain request for a turn, the explanation as plain rows, and the per-turn explain state. */

import type { ExplainBody, ExplainFactor, ExplainLeg, ExplainNoteStatus, ExplainRequest } from "../sidecar/wire";
import { DASH, type Fact, formatScore } from "./inspect";
import { formatSignal } from "./relevance";
import type { Turn } from "./state";

/**
 * What to ask the sidecar about `note` for a finished turn: the query that was searched (a follow-up's rewrite,
 * not the words typed), with the turn's own `k` and filters so the note is judged by the same search. Null while
 * the turn runs, or when it retrieved nothing to compare against.
 */
export function explainRequest(turn: Turn, note: string): ExplainRequest | null {
	if (turn.status !== "done" || turn.retrieval === null) return null;
	const req: ExplainRequest = { question: turn.retrieval.query, note };
	if (turn.request.k !== undefined) req.k = turn.request.k;
	if (turn.request.filters && Object.keys(turn.request.filters).length > 0) req.filters = turn.request.filters;
	return req;
}

/** A "Why not…?" control belongs on a turn that finished with a retrieval (answered, abstained or no match). */
export function canExplain(turn: Turn): boolean {
	return turn.status === "done" && turn.retrieval !== null;
}

const STATUS_TEXT: Record<ExplainNoteStatus, string> = {
	indexed: "Indexed",
	excluded: "Excluded from the index",
	failed: "Could not be indexed",
	not_indexed: "Not indexed yet",
	missing: "No such note",
};

/** `2026-12-01T10:00:00+00:00` → `2026-12-01 10:00 UTC`; anything unreadable is shown as it came. */
export function formatIndexedAt(iso: string): string {
	const ms = Date.parse(iso);
	if (Number.isNaN(ms)) return iso;
	return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function statusFacts(note: ExplainBody["note"]): Fact[] {
	const facts: Fact[] = [{ label: "Status", value: STATUS_TEXT[note.status] }];
	if (note.status === "indexed") {
		facts.push({ label: "Chunks", value: String(note.chunks) });
		facts.push({ label: "Indexed at", value: note.indexed_at === null ? "Unknown" : formatIndexedAt(note.indexed_at) });
	}
	return facts;
}

/** Why a note is not indexed: the sidecar's sentence naming the rule (a glob, the size limit), never the note's text. */
export function reasonFact(note: ExplainBody["note"]): Fact | null {
	return note.reason === null ? null : { label: "Reason", value: `${note.reason.detail} (${note.reason.rule})` };
}

export interface LegRow {
	leg: string;
	/** `Kodi › Maintenance`, or "Not found" when that leg did not return any chunk of the note. */
	where: string;
	rank: string;
	score: string;
	lines: string;
	found: boolean;
}

const LEGS: { key: keyof ExplainBody["best"]; label: string; score: (n: number) => string }[] = [
	// Dense: cosine; keyword: BM25; fused: the fused score the ranking and the cut line use.
	{ key: "dense", label: "Dense", score: formatSignal },
	{ key: "keyword", label: "Keyword", score: formatSignal },
	{ key: "fused", label: "Fused", score: formatScore },
];

function legRow(label: string, leg: ExplainLeg | null, score: (n: number) => string): LegRow {
	if (leg === null) return { leg: label, where: "Not found", rank: DASH, score: DASH, lines: DASH, found: false };
	return {
		leg: label,
		where: leg.heading_path.length > 0 ? leg.heading_path.join(" › ") : "(before the first heading)",
		rank: String(leg.rank),
		score: score(leg.score),
		lines: `${leg.start_line}–${leg.end_line}`,
		found: true,
	};
}

/** The note's best chunk in each leg, dense and keyword first, then the fused ranking before the cut. */
export function legRows(body: ExplainBody): LegRow[] {
	return LEGS.map(({ key, label, score }) => legRow(label, body.best[key], score));
}

function words(terms: string[]): string {
	return terms.length === 0 ? "None" : terms.join(", ");
}

/** Whether it was sent, where the cut was, and which of the query's terms the note has. */
export function outcomeFacts(body: ExplainBody): Fact[] {
	const { cut } = body;
	const last = cut.last_score === null ? "" : `; last score inside ${formatScore(cut.last_score)}`;
	const facts: Fact[] = [
		{ label: "Sent to the model", value: body.sent ? "Yes" : "No" },
		{ label: "Cut line", value: `Top ${cut.k} asked for, ${cut.sent} sent${last}` },
		{ label: "Matched terms", value: words(body.terms.matched) },
		{ label: "Missing terms", value: words(body.terms.missing) },
	];
	if (!body.dense_available) facts.push({ label: "Semantic search", value: "Off: keyword search only" });
	return facts;
}

const FACTOR_LABEL: Record<string, string> = {
	filter: "Filter",
	date_scope: "Date scope",
	boilerplate: "Boilerplate",
	abstention: "Relevance decision",
	rerank: "Reranker",
	prompt_budget: "Prompt budget",
	dense_off: "Semantic search off",
	privacy: "Privacy",
};

/** Each factor that affected the note, labelled; a kind this version does not know keeps its own name. */
export function factorFacts(factors: ExplainFactor[]): Fact[] {
	return factors.map((f) => ({ label: FACTOR_LABEL[f.kind] ?? f.kind, value: capitalise(f.detail) }));
}

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Per turn: nothing asked yet, a request in flight, its explanation, or the sidecar's error as written. */
export type ExplainState =
	| { kind: "idle" }
	| { kind: "loading"; note: string; seq: number }
	| { kind: "done"; note: string; seq: number; body: ExplainBody }
	| { kind: "error"; note: string; seq: number; message: string; code: string };

export type ExplainAction =
	| { type: "start"; note: string; seq: number }
	| { type: "result"; seq: number; body: ExplainBody }
	| { type: "failed"; seq: number; message: string; code: string }
	| { type: "reset" };

export const idleExplain: ExplainState = { kind: "idle" };

/**
 * Folds an action into a turn's explain state. A result or failure whose `seq` is not the request in flight is
 * stale (another note was picked since, or the turn was asked again) and changes nothing.
 */
export function reduceExplain(state: ExplainState, action: ExplainAction): ExplainState {
	switch (action.type) {
		case "reset":
			return idleExplain;
		case "start":
			return { kind: "loading", note: action.note, seq: action.seq };
		case "result":
			if (state.kind !== "loading" || state.seq !== action.seq) return state;
			return { kind: "done", note: state.note, seq: state.seq, body: action.body };
		case "failed":
			if (state.kind !== "loading" || state.seq !== action.seq) return state;
			return { kind: "error", note: state.note, seq: state.seq, message: action.message, code: action.code };
	}
}

/** The picker's order before typing: the notes the search ranked (best first, once each), then the rest by path. */
export function pickOrder(paths: readonly string[], ranked: readonly string[]): string[] {
	const present = new Set(paths);
	const first = [...new Set(ranked)].filter((p) => present.has(p));
	const seen = new Set(first);
	const rest = paths.filter((p) => !seen.has(p)).sort((a, b) => a.localeCompare(b));
	return [...first, ...rest];
}

/** The notes a turn's search ranked, in its order (the closest notes when it abstained). */
export function rankedPaths(turn: Turn): string[] {
	const r = turn.retrieval;
	if (r === null) return [];
	return [...r.sources, ...r.closest].map((s) => s.path);
}
