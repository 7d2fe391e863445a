/** What the inspector under an answer shows, as plain rows: ranking, query terms, prompt, timings and tokens. */

import type { DoneEvent, RetrievalEvent } from "../sidecar/wire";
import { headingTrail } from "./citations";

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
	sent: boolean;
}

export interface Ranking {
	rows: RankingRow[];
	/** Rows before this index were sent to the model; the cut line is drawn here. */
	cutAfter: number;
}

/** The fused ranking as the sidecar ordered it (sent sources first), with the cut after the last sent one. */
export function ranking(retrieval: RetrievalEvent): Ranking {
	const rows = retrieval.sources.map((s) => ({
		label: s.n === null ? "" : `[${s.n}]`,
		id: s.id,
		where: headingTrail(s),
		dense: formatRank(s.dense_rank),
		keyword: formatRank(s.keyword_rank),
		fused: formatScore(s.fused_score),
		sent: s.sent,
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
		{ label: "First token", value: formatMs(m?.first_token_ms) },
		{ label: "Generation", value: formatMs(m?.generation_ms) },
		{ label: "Total", value: formatMs(m?.total_ms) },
		{ label: "Prompt tokens", value: formatCount(m?.prompt_tokens) },
		{ label: "Answer tokens", value: formatCount(m?.completion_tokens) },
	];
}
