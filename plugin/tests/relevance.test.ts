/** The relevance decision as the plugin reads and shows it: the golden abstention, verdicts, signals and closest notes. */
import { describe, expect, it } from "vitest";
import { closestById, closestNotes, closestScores, formatSignal, isAbstained, relevanceFacts, verdict } from "../src/answer/relevance";
import { parseAskEvent, type Relevance, type RetrievalEvent } from "../src/sidecar/wire";
import { abstainLines, askLines } from "./helpers";

const first = (lines: unknown[]) => parseAskEvent(lines[0]) as RetrievalEvent;

const DECISION: Relevance = {
	answer: false,
	score: 0.3029,
	threshold: 0.5,
	signals: { top_dense: 0.25, keyword_strength: 1.3108, term_coverage: 0.1667, legs_agree: true, dense_gap: null, dense_available: true },
	calibration: { model: "*", source: "fallback (no calibration for this embedding model)" },
	forced: false,
	reason: "Your notes do not seem to cover this question (relevance 0.30, needs 0.50).",
};

describe("the relevance decision on the wire", () => {
	it("ask_abstain.ndjson: no answer, the closest notes with their scores, nothing sent", () => {
		const r = first(abstainLines());
		expect(r.relevance).toEqual(DECISION);
		expect(isAbstained(r)).toBe(true);
		expect(r.sent).toEqual([]);
		expect(closestNotes(r).map((s) => [s.path, s.n, s.sent, s.dense_score])).toEqual([
			["Recipes/Soup.md", null, false, 0.25],
			["Homelab/Kodi.md", null, false, 0.2457],
			["Journal/2026-11-02.md", null, false, 0.2289],
		]);
		expect(closestById(r, r.closest[1]!.id)?.path).toBe("Homelab/Kodi.md");
		expect(closestById(r, "nope")).toBeUndefined();
	});

	it("ask.ndjson: answered, nothing listed as closest", () => {
		const r = first(askLines());
		expect(verdict(r.relevance)).toBe("answered");
		expect(isAbstained(r)).toBe(false);
		expect(closestNotes(r)).toEqual([]);
		expect(r.sources[0]?.dense_score).toBe(0.4074);
	});

	it("a sidecar older than the decision: no relevance, no closest, no scores (it always answered)", () => {
		const raw = askLines()[0] as Record<string, unknown>;
		const { relevance: _r, closest: _c, ...older } = raw;
		const sources = (older.sources as Record<string, unknown>[]).map(({ dense_score: _d, keyword_score: _k, ...s }) => s);
		const r = parseAskEvent({ ...older, sources }) as RetrievalEvent;
		expect([r.relevance, r.closest, r.sources[0]?.dense_score, r.sources[0]?.keyword_score]).toEqual([null, [], null, null]);
		expect(verdict(r.relevance)).toBeNull();
		expect(isAbstained(r)).toBe(false);
	});
});

describe("showing the decision", () => {
	it.each([
		[{ answer: true, forced: false }, "answered"],
		[{ answer: false, forced: false }, "abstained"],
		[{ answer: true, forced: true }, "forced"],
	] as const)("verdict of %o is %s", (parts, expected) => {
		expect(verdict({ ...DECISION, ...parts })).toBe(expected);
	});

	it.each([
		[null, "–"],
		[0.21371, "0.214"],
		[2.2652, "2.265"],
	])("formatSignal(%s) is %s", (value, text) => {
		expect(formatSignal(value)).toBe(text);
	});

	it("closest scores name both legs, a dash where one missed", () => {
		const [soup, kodi] = first(abstainLines()).closest;
		expect(closestScores(soup!)).toBe("dense 0.250 · BM25 1.578");
		expect(closestScores(kodi!)).toBe("dense 0.246 · BM25 –");
	});

	it("each signal, the score against the threshold and the calibration", () => {
		expect(relevanceFacts(DECISION)).toEqual([
			{ label: "Decision", value: "Not answered: the notes do not seem to cover it" },
			{ label: "Score", value: "0.30 (threshold 0.50)" },
			{ label: "Best dense similarity", value: "0.250" },
			{ label: "Keyword strength", value: "1.311" },
			{ label: "Term coverage", value: "17%" },
			{ label: "Legs agree", value: "Yes" },
			{ label: "Dense gap", value: "–" },
			{ label: "Calibration", value: "fallback (no calibration for this embedding model)" },
		]);
	});

	it("keyword-only decisions and named calibrations say so", () => {
		const facts = relevanceFacts({
			...DECISION,
			answer: true,
			forced: true,
			signals: { ...DECISION.signals, top_dense: null, dense_available: false },
			calibration: { model: "all-minilm", source: "placeholder until fitted" },
		});
		expect(facts[0]).toEqual({ label: "Decision", value: "Sent anyway, on request" });
		expect(facts).toContainEqual({ label: "Semantic search", value: "Off: decided on keywords alone" });
		expect(facts[facts.length - 1]).toEqual({ label: "Calibration", value: "all-minilm (placeholder until fitted)" });
	});
});
