import { describe, expect, it } from "vitest";
import { DASH, formatMs, formatRank, formatScore, ranking, termFacts, timingFacts } from "../src/answer/inspect";
import { type DoneEvent, parseAskEvent, type RetrievalEvent } from "../src/sidecar/wire";
import { askLines } from "./helpers";

describe("inspector rows", () => {
	const events = askLines().map((l) => parseAskEvent(l));
	const retrieval = events[0] as RetrievalEvent;
	const done = events.find((e): e is DoneEvent => e?.type === "done");

	it("ranks every source, with – where a method did not find it, and the cut after the sent ones", () => {
		const r = ranking(retrieval);
		expect(r.rows).toHaveLength(retrieval.sources.length);
		retrieval.sources.forEach((s, i) => {
			const row = r.rows[i]!;
			expect(row.dense).toBe(s.dense_rank === null ? DASH : String(s.dense_rank));
			expect(row.keyword).toBe(s.keyword_rank === null ? DASH : String(s.keyword_rank));
			expect(row.label).toBe(s.n === null ? "" : `[${s.n}]`);
		});
		expect(r.cutAfter).toBe(retrieval.sources.filter((s) => s.sent).length);
		expect(r.rows.slice(0, r.cutAfter).every((row) => row.sent)).toBe(true);
		expect(r.rows.slice(r.cutAfter).every((row) => !row.sent)).toBe(true);
	});

	it("a source of plain prose has no noise badge; one of template lines has its shares and why it ranks lower", () => {
		expect(ranking(retrieval).rows.every((row) => row.noise === null)).toBe(true);
		const noisy: RetrievalEvent = {
			...retrieval,
			sources: retrieval.sources.map((s, i) =>
				i === 1 ? { ...s, boosts: ["boilerplate"], noise: { template: 100, links: 0, query: 0, informative: 0 } } : s,
			),
		};
		expect(ranking(noisy).rows.map((row) => row.noise?.label ?? "")).toEqual(["", "template 100%", ...noisy.sources.slice(2).map(() => "")]);
		expect(ranking(noisy).rows[1]?.noise?.tooltip).toBe(
			"Mostly lines this vault repeats across many notes (templates, footers); it ranks below passages that say more.",
		);
	});

	it("lists query terms with their document counts", () => {
		expect(termFacts(retrieval).map((f) => f.label)).toEqual(retrieval.terms.map((t) => t.term));
	});

	it("timings come from done when present, else from the retrieval event", () => {
		const before = timingFacts(retrieval, null);
		expect(before.find((f) => f.label === "Generation")?.value).toBe(DASH);
		if (done) {
			const after = timingFacts(retrieval, done);
			expect(after.find((f) => f.label === "Answer tokens")?.value).toBe(
				done.metrics.completion_tokens === null ? DASH : String(done.metrics.completion_tokens),
			);
		}
	});

	it.each([
		[null, DASH],
		[undefined, DASH],
		[0.42, "0.4 ms"],
		[0.01, "<0.1 ms"],
		[0, "<0.1 ms"],
		[12.6, "13 ms"],
		[1530, "1.53 s"],
	])("formatMs(%s) = %s", (ms, expected) => {
		expect(formatMs(ms)).toBe(expected);
	});

	it.each([
		[null, DASH],
		[1, "1"],
	])("formatRank(%s) = %s", (rank, expected) => {
		expect(formatRank(rank)).toBe(expected);
	});

	it("formatScore keeps four decimals", () => {
		expect(formatScore(0.032522)).toBe("0.0325");
	});
});
