// @vitest-environment jsdom
/** The noise badge as drawn in the inspector's ranking: only on a source that has template, link or query lines. */
import "../e2e/shim/obsidian";
import { describe, expect, it } from "vitest";
import { parseAskEvent, type RetrievalEvent } from "../src/sidecar/wire";
import { renderInspector } from "../src/ui/inspector";
import { askLines } from "./helpers";

const golden = () => parseAskEvent(askLines()[0]) as RetrievalEvent;

function drawn(retrieval: RetrievalEvent): HTMLElement {
	const el = createDiv();
	renderInspector(el, retrieval, null);
	return el;
}

describe("noise in the drawn inspector", () => {
	it("no badge for passages of plain prose", () => {
		expect(drawn(golden()).querySelector(".ask-vault-noise")).toBeNull();
	});

	it("a badge beside the heading trail of the source that has them, its tooltip saying why", () => {
		const base = golden();
		const sources = base.sources.map((s, i) =>
			i === 2 ? { ...s, boosts: ["boilerplate"], noise: { template: 60, links: 40, query: 0, informative: 0 } } : s,
		);
		const el = drawn({ ...base, sources });
		const badges = Array.from(el.querySelectorAll<HTMLElement>(".ask-vault-ranking .ask-vault-noise"));
		expect(badges.map((b) => b.textContent)).toEqual(["template 60% · links 40%"]);
		const row = badges[0]!.closest("tr");
		expect(row?.getAttribute("data-chunk-id")).toBe(sources[2]!.id);
		expect(badges[0]!.parentElement).toBe(row?.querySelectorAll("td")[1]);
		expect(badges[0]!.getAttribute("aria-label")).toBe(
			"Mostly lines this vault repeats across many notes (templates, footers) and lines that are only links; it ranks below passages that say more.",
		);
		// The other cells keep their figures.
		expect(row?.querySelectorAll("td")[4]?.textContent).toBe(sources[2]!.fused_score.toFixed(4));
	});
});
