// @vitest-environment jsdom
/** The reranker in the inspector: the wire shape from the golden stream, the rows and facts, and the drawn section. */
import "../e2e/shim/obsidian";
import { describe, expect, it } from "vitest";
import { DASH, ranking, rerankApplied, rerankFacts, timingFacts } from "../src/answer/inspect";
import { parseAskEvent, type RerankReport, type RetrievalEvent } from "../src/sidecar/wire";
import { renderInspector } from "../src/ui/inspector";
import { askLines } from "./helpers";

const golden = () => askLines()[0] as Record<string, unknown>;
const parsed = (value: Record<string, unknown>) => parseAskEvent(value) as RetrievalEvent;

function withRerank(rerank: Partial<RerankReport> | null): RetrievalEvent {
	const base = parsed(golden());
	if (rerank === null) return { ...base, rerank: null };
	return { ...base, rerank: { ...base.rerank!, ...rerank } };
}

describe("rerank on the wire", () => {
	it("the golden retrieval event carries the reranker's report", () => {
		const r = parsed(golden());
		expect(r.rerank).not.toBeNull();
		expect(r.rerank?.applied).toBe(true);
		expect(r.rerank?.fused_order).toEqual(r.sources.map((s) => s.id));
		expect(r.rerank?.omitted).toBe(1);
	});

	it("a sidecar without a reranker (no field) reads as off", () => {
		const old = { ...golden() };
		delete old.rerank;
		expect(parsed(old).rerank).toBeNull();
		expect(parsed({ ...golden(), rerank: null }).rerank).toBeNull();
	});

	it("a malformed report is refused like any other bad field", () => {
		expect(() => parseAskEvent({ ...golden(), rerank: { applied: "yes" } })).toThrow(/rerank\.applied/);
	});
});

describe("rerank rows and facts", () => {
	it("an applied rerank shows each row's place in the fused order", () => {
		// Before reranking the third source came first and the first second; the second was not a candidate.
		const ids = parsed(golden()).sources.map((s) => s.id);
		const r = withRerank({ order_changed: true, fused_order: [ids[2]!, ids[0]!] });
		const places = ranking(r).rows.map((row) => row.fusedPlace);
		expect(places).toEqual([String(2), DASH, String(1)]);
	});

	it("no fused place when the order was not reranked", () => {
		expect(ranking(withRerank({ applied: false, fallback_reason: "timeout" })).rows.every((r) => r.fusedPlace === "")).toBe(
			true,
		);
		expect(ranking(withRerank(null)).rows.every((r) => r.fusedPlace === "")).toBe(true);
	});

	it.each([
		[{ applied: true, order_changed: true, omitted: 0 }, "Reordered"],
		[{ applied: true, order_changed: false, omitted: 0 }, "Kept the fused order (model agreed)"],
		[{ applied: true, order_changed: true, omitted: 3 }, "Reordered; 3 unranked kept fused order"],
		[{ applied: false, fallback_reason: "malformed" }, "Fell back to the fused order: reply was not JSON"],
		[{ applied: false, fallback_reason: "unknown_id" }, "Fell back to the fused order: ranked an unknown candidate"],
		[{ applied: false, fallback_reason: "duplicate_id" }, "Fell back to the fused order: ranked a candidate twice"],
		[{ applied: false, fallback_reason: "timeout" }, "Fell back to the fused order: timed out"],
		[{ applied: false, fallback_reason: "model_error" }, "Fell back to the fused order: model unavailable"],
		[{ applied: false, fallback_reason: "something_new" }, "Fell back to the fused order: something_new"],
	])("outcome of %o is %s", (rerank, outcome) => {
		const facts = rerankFacts(withRerank(rerank).rerank);
		expect(facts.find((f) => f.label === "Outcome")?.value).toBe(outcome);
	});

	it("a fallback names its detail; an applied rerank does not need one", () => {
		const fell = rerankFacts(withRerank({ applied: false, fallback_reason: "timeout", detail: "no ranking within 20 s" }).rerank);
		expect(fell.find((f) => f.label === "Detail")?.value).toBe("no ranking within 20 s");
		expect(rerankFacts(withRerank({}).rerank).find((f) => f.label === "Detail")).toBeUndefined();
		expect(rerankFacts(null)).toEqual([]);
	});

	it("the rerank time is its own timing row, only when reranking ran", () => {
		expect(timingFacts(withRerank({ ms: 2104.7 }), null).find((f) => f.label === "Rerank")?.value).toBe("2.10 s");
		expect(timingFacts(withRerank(null), null).find((f) => f.label === "Rerank")).toBeUndefined();
		expect(rerankApplied(withRerank({ applied: false }).rerank)).toBe(false);
	});
});

describe("rerank in the drawn inspector", () => {
	it("an applied rerank titles the table, adds the fused-place column and a reranker section", () => {
		const el = createDiv();
		const r = withRerank({ order_changed: true });
		renderInspector(el, r, null);
		const titles = Array.from(el.querySelectorAll(".ask-vault-inspector-title")).map((t) => t.textContent);
		expect(titles).toContain("Reranked ranking");
		expect(titles).toContain("Reranker");
		expect(Array.from(el.querySelectorAll(".ask-vault-ranking th")).map((th) => th.textContent)).toContain("Fused #");
		const cut = el.querySelector(".ask-vault-cut td");
		expect(cut?.getAttribute("colspan")).toBe("6");
		expect(el.querySelector(".ask-vault-rerank")?.textContent).toContain("Reordered");
	});

	it("a fallback keeps the fused title and columns and says why", () => {
		const el = createDiv();
		renderInspector(el, withRerank({ applied: false, fallback_reason: "malformed", detail: "the reply is not JSON" }), null);
		const titles = Array.from(el.querySelectorAll(".ask-vault-inspector-title")).map((t) => t.textContent);
		expect(titles).toContain("Fused ranking");
		expect(Array.from(el.querySelectorAll(".ask-vault-ranking th")).map((th) => th.textContent)).not.toContain("Fused #");
		expect(el.querySelector(".ask-vault-rerank")?.textContent).toContain("the reply is not JSON");
	});

	it("reranking off: no reranker section", () => {
		const el = createDiv();
		renderInspector(el, withRerank(null), null);
		expect(el.querySelector(".ask-vault-rerank")).toBeNull();
	});
});
