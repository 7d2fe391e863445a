/** What the inspector under an answer shows, as plain rows: ranking, reranker, query terms, prompt, timings and tokens. */

import type { DoneEvent, RerankReport, RetrievalEvent } from "../sidecar/wire";
import { headingTrail } from "./citations";
import { hitNoiseBadge, type NoiseBadge } from "./noise";

export const DASH = "–";

export function formatRank(rank: number | null): string {
	return rank === null ? DASH : String(rank);
}

export function formatScore(score: number): string {
	return score.toFixed(4);
}

export function formatMs(ms: number | null | undefined): string {
	if (ms === null || ms === undefined) return DASH;
	if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
	if (ms < 0.1) return "<0.1 ms";
	return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
}

export function formatCount(n: number | null | undefined): string {
	return n === null || n === undefined ? DASH : String(n);
}

export interface RankingRow {
	/** `[n]` for a sent source, "" for one that was not sent. */
	label: string;
	id: string;
	where: string;
	dense: string;
	keyword: string;
	fused: string;
	/** Place in the fused ranking before the reranker moved it ("" when the order was not reranked). */
	fusedPlace: string;
	sent: boolean;
	/** Its template, link or query share, when it has one (`template 100%`). */
	noise: NoiseBadge | null;
}

export interface Ranking {
	rows: RankingRow[];
	/** Rows before this index were sent to the model; the cut line is drawn here. */
	cutAfter: number;
}

/** The fused ranking as the sidecar ordered it (sent sources first), with the cut after the last sent one. */
export function ranking(retrieval: RetrievalEvent): Ranking {
	const reranked = rerankApplied(retrieval.rerank);
	const fusedOrder = retrieval.rerank?.fused_order ?? [];
	const rows = retrieval.sources.map((s) => ({
		label: s.n === null ? "" : `[${s.n}]`,
		id: s.id,
		where: headingTrail(s),
		dense: formatRank(s.dense_rank),
		keyword: formatRank(s.keyword_rank),
		fused: formatScore(s.fused_score),
		fusedPlace: reranked ? fusedPlace(fusedOrder, s.id) : "",
		sent: s.sent,
		noise: hitNoiseBadge(s),
	}));
	let cutAfter = 0;
	rows.forEach((r, i) => {
		if (r.sent) cutAfter = i + 1;
	});
	return { rows, cutAfter };
}

export interface Fact {
	label: string;
	value: string;
}

/** The reranker's order is what the table shows. */
export function rerankApplied(rerank: RerankReport | null): boolean {
	return rerank !== null && rerank.applied;
}

function fusedPlace(order: string[], id: string): string {
	const at = order.indexOf(id);
	return at < 0 ? DASH : String(at + 1);
}

const FALLBACK_TEXT: Record<string, string> = {
	malformed: "reply was not JSON",
	wrong_shape: "reply was not a ranking",
	empty: "empty ranking",
	unknown_id: "ranked an unknown candidate",
	duplicate_id: "ranked a candidate twice",
	timeout: "timed out",
	model_error: "model unavailable",
	too_few_candidates: "nothing to reorder",
};

/** The reranker in a few rows, or none when it was off; a fallback says why the fused order was kept. */
export function rerankFacts(rerank: RerankReport | null): Fact[] {
	if (rerank === null) return [];
	let outcome: string;
	if (rerank.applied) {
		outcome = rerank.order_changed ? "Reordered" : "Kept the fused order (model agreed)";
		if (rerank.omitted > 0) outcome += `; ${rerank.omitted} unranked kept fused order`;
	} else {
		const reason = rerank.fallback_reason ?? "unknown";
		outcome = `Fell back to the fused order: ${FALLBACK_TEXT[reason] ?? reason}`;
	}
	const facts: Fact[] = [
		{ label: "Outcome", value: outcome },
		{ label: "Model", value: rerank.model },
		{ label: "Candidates", value: String(rerank.candidates) },
		{ label: "Time", value: formatMs(rerank.ms) },
	];
	if (!rerank.applied && rerank.detail) facts.push({ label: "Detail", value: rerank.detail });
	return facts;
}

export function termFacts(retrieval: RetrievalEvent): Fact[] {
	return retrieval.terms.map((t) => ({ label: t.term, value: `${t.df} ${t.df === 1 ? "chunk" : "chunks"}` }));
}

export function countFacts(retrieval: RetrievalEvent): Fact[] {
	return [
		{ label: "Dense matches", value: formatCount(retrieval.counts.dense) },
		{ label: "Keyword matches", value: formatCount(retrieval.counts.keyword) },
	];
}

/** Where the time and tokens went: retrieval timings from the first event, the rest from `done`. */
export function timingFacts(retrieval: RetrievalEvent | null, done: DoneEvent | null): Fact[] {
	const m = done?.metrics;
	const t = retrieval?.timings_ms ?? {};
	return [
		{ label: "Embed", value: formatMs(m?.embed_ms ?? t.embed) },
		{ label: "Retrieval", value: formatMs(m?.retrieval_ms ?? t.retrieval) },
		...(retrieval?.rerank ? [{ label: "Rerank", value: formatMs(retrieval.rerank.ms) }] : []),
		{ label: "First token", value: formatMs(m?.first_token_ms) },
		{ label: "Generation", value: formatMs(m?.generation_ms) },
		{ label: "Total", value: formatMs(m?.total_ms) },
		{ label: "Prompt tokens", value: formatCount(m?.prompt_tokens) },
		{ label: "Answer tokens", value: formatCount(m?.completion_tokens) },
	];
}
