/** The sidecar's relevance decision as a turn and its inspector show it: the verdict, each signal, score and threshold. */

import type { Relevance, RetrievalEvent, Source } from "../sidecar/wire";
import { DASH, type Fact } from "./inspect";

export type Verdict = "answered" | "abstained" | "forced";

/** Null for a sidecar older than the decision (it always answered). */
export function verdict(relevance: Relevance | null): Verdict | null {
	if (relevance === null) return null;
	if (!relevance.answer) return "abstained";
	return relevance.forced ? "forced" : "answered";
}

/** The notes were kept back: the turn lists the closest ones and offers "Ask anyway". */
export function isAbstained(retrieval: RetrievalEvent | null): boolean {
	return retrieval?.relevance?.answer === false;
}

/** The closest notes, not used; empty unless the decision abstained. */
export function closestNotes(retrieval: RetrievalEvent | null): Source[] {
	return retrieval !== null && isAbstained(retrieval) ? retrieval.closest : [];
}

export function closestById(retrieval: RetrievalEvent | null, id: string): Source | undefined {
	return closestNotes(retrieval).find((s) => s.id === id);
}

export function formatSignal(value: number | null): string {
	return value === null ? DASH : value.toFixed(3);
}

function percent(value: number | null): string {
	return value === null ? DASH : `${Math.round(value * 100)}%`;
}

/** `dense 0.214 · BM25 2.265`: how close a note came, by each leg (a dash where the leg missed it). */
export function closestScores(source: Source): string {
	return `dense ${formatSignal(source.dense_score)} · BM25 ${formatSignal(source.keyword_score)}`;
}

const VERDICT_TEXT: Record<Verdict, string> = {
	answered: "Answered from the notes",
	abstained: "Not answered: the notes do not seem to cover it",
	forced: "Sent anyway, on request",
};

/** The decision in rows: verdict, score against threshold, every signal, and which calibration weighed them. */
export function relevanceFacts(relevance: Relevance): Fact[] {
	const s = relevance.signals;
	const kind = verdict(relevance) ?? "answered";
	const { model, source } = relevance.calibration;
	// `*` is the fallback, whose source already says that no calibration exists for this model.
	const calibration = model === "*" ? source : `${model} (${source})`;
	return [
		{ label: "Decision", value: VERDICT_TEXT[kind] },
		{ label: "Score", value: `${relevance.score.toFixed(2)} (threshold ${relevance.threshold.toFixed(2)})` },
		{ label: "Best dense similarity", value: formatSignal(s.top_dense) },
		{ label: "Keyword strength", value: formatSignal(s.keyword_strength) },
		{ label: "Term coverage", value: percent(s.term_coverage) },
		{ label: "Legs agree", value: s.legs_agree ? "Yes" : "No" },
		{ label: "Dense gap", value: formatSignal(s.dense_gap) },
		...(s.dense_available ? [] : [{ label: "Semantic search", value: "Off: decided on keywords alone" }]),
		{ label: "Calibration", value: calibration },
	];
}
