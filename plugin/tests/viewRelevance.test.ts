// @vitest-environment jsdom
/** The chat view when the sidecar abstains: the reason, the closest notes (clickable like sources), the decision in the inspector, and "Ask anyway". */
import { describe, expect, it } from "vitest";
import * as shim from "../e2e/shim/obsidian";
import { linktextFor } from "../src/answer/citations";
import { parseAskEvent, type RetrievalEvent } from "../src/sidecar/wire";
import { abstainLines, askLines, bodyOf } from "./helpers";
import { calls, ndjson, routes, turnsOf, useChatView, view, waitFor } from "./viewSetup";

useChatView();

const abstained = () => parseAskEvent(abstainLines()[0]) as RetrievalEvent;
const asks = () => calls.filter((c) => c.url.endsWith("/api/ask")).map((c) => bodyOf(c));

function answerForcedOnly(): void {
	routes["/api/ask"] = (call) => {
		const force = bodyOf(call).force === true;
		return ndjson(force ? askLines() : abstainLines(), 1, call.init.signal);
	};
}

async function askUncovered() {
	const v = view();
	v.ask({ question: "What is the wifi password of the boat in the harbour?" });
	await waitFor(() => turnsOf(v)[0]?.status === "done", "the abstained turn");
	return v;
}

/** The abstained answer's events, then a stream that stays open (as a slow sidecar's may) until it is aborted. */
function abstainThenHold(signal: AbortSignal | null | undefined): Response {
	const encoder = new TextEncoder();
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			for (const line of abstainLines()) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
			signal?.addEventListener("abort", () => controller.error(new DOMException("The operation was aborted.", "AbortError")));
		},
	});
	return new Response(body, { status: 200, headers: { "Content-Type": "application/x-ndjson" } });
}

describe("an abstained answer", () => {
	it("says why, lists the closest notes with their scores and offers Ask anyway", async () => {
		answerForcedOnly();
		const v = await askUncovered();
		const el = v.contentEl;
		const r = abstained();
		expect(el.querySelector(".ask-vault-answer-status")?.textContent).toBe(r.relevance?.reason);
		await waitFor(() => el.querySelector(".ask-vault-answer-body")?.textContent?.includes("don't seem to cover"), "the answer text");
		expect(el.querySelector(".ask-vault-closest .ask-vault-sources-title")?.textContent).toBe("Closest notes, not used");
		const items = Array.from(el.querySelectorAll(".ask-vault-closest-list li")).map((li) => li.textContent);
		expect(items).toEqual([
			"Recipes/Soup.md › Lentil soup lines 1–3 · dense 0.250 · BM25 1.578",
			"Homelab/Kodi.md › Kodi › Maintenance lines 6–8 · dense 0.246 · BM25 –",
			"Journal/2026-11-02.md › 2026-11-02 lines 1–3 · dense 0.229 · BM25 –",
		]);
		expect(el.querySelectorAll("[data-ask-vault-n]")).toHaveLength(0);
		expect(el.querySelector("button.ask-vault-ask-anyway")?.textContent).toBe("Ask anyway");
	});

	it("the inspector shows the decision: each signal, score and threshold, and that nothing was sent", async () => {
		answerForcedOnly();
		const v = await askUncovered();
		const el = v.contentEl;
		const facts = Array.from(el.querySelectorAll(".ask-vault-relevance-facts .ask-vault-fact")).map((row) => [
			row.querySelector("dt")?.textContent,
			row.querySelector("dd")?.textContent,
		]);
		expect(facts).toEqual([
			["Decision", "Not answered: the notes do not seem to cover it"],
			["Score", "0.30 (threshold 0.50)"],
			["Best dense similarity", "0.250"],
			["Keyword strength", "1.311"],
			["Term coverage", "17%"],
			["Legs agree", "Yes"],
			["Dense gap", "–"],
			["Calibration", "fallback (no calibration for this embedding model)"],
		]);
		expect(el.querySelector(".ask-vault-relevance")?.classList.contains("is-abstained")).toBe(true);
		expect(el.querySelector(".ask-vault-ranking .ask-vault-cut")?.textContent).toBe("None of these were sent to the model");
		expect(el.querySelectorAll(".ask-vault-ranking tbody tr.is-unsent")).toHaveLength(3);
	});

	it("a closest note previews on hover and opens on click, like a source", async () => {
		answerForcedOnly();
		const v = await askUncovered();
		const source = abstained().closest[1]!;
		const link = v.contentEl.querySelectorAll<HTMLElement>("a.ask-vault-closest-link")[1]!;
		expect(link.getAttribute("data-href")).toBe(linktextFor(source));
		link.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
		expect(shim.records.hoverLinks[shim.records.hoverLinks.length - 1]).toMatchObject({ linktext: linktextFor(source), targetEl: link });
		const card = await waitFor(() => v.contentEl.querySelector(".ask-vault-hover-card"), "the fallback card");
		expect(card.querySelector(".ask-vault-hover-trail")?.textContent).toBe(`Not used: ${source.path} › ${source.heading_path.join(" › ")}`);
		link.dispatchEvent(new MouseEvent("click", { bubbles: true }));
		expect(shim.records.opened[shim.records.opened.length - 1]).toEqual({
			linktext: linktextFor(source),
			sourcePath: "",
			newLeaf: false,
			state: null,
		});
	});

	it("Ask anyway while the abstained stream is still closing: the forced answer is not marked stopped", async () => {
		routes["/api/ask"] = (call) =>
			bodyOf(call).force === true ? ndjson(askLines(), 1, call.init.signal) : abstainThenHold(call.init.signal);
		const v = await askUncovered();
		v.contentEl.querySelector<HTMLButtonElement>("button.ask-vault-ask-anyway")!.click();
		await waitFor(() => turnsOf(v)[0]?.status === "done" && turnsOf(v)[0]?.retrieval?.relevance?.answer, "the forced answer");
		expect(turnsOf(v)).toHaveLength(1);
		expect(asks().map((a) => a.force ?? false)).toEqual([false, true]);
	});

	it("Ask anyway re-asks the same question with force, and the answer streams into the same turn", async () => {
		answerForcedOnly();
		const v = await askUncovered();
		v.contentEl.querySelector<HTMLButtonElement>("button.ask-vault-ask-anyway")!.click();
		await waitFor(() => turnsOf(v)[0]?.status === "done" && turnsOf(v)[0]?.retrieval?.relevance?.answer, "the forced answer");
		expect(asks()).toEqual([
			{ question: "What is the wifi password of the boat in the harbour?", k: 8 },
			{ question: "What is the wifi password of the boat in the harbour?", k: 8, force: true },
		]);
		const el = v.contentEl;
		expect(turnsOf(v)).toHaveLength(1);
		await waitFor(() => el.querySelector(".ask-vault-source-list li a[data-ask-vault-n]"), "the sources sent");
		expect(el.querySelector(".ask-vault-closest")).toBeNull();
		expect(el.querySelector("button.ask-vault-ask-anyway")).toBeNull();
		expect(el.querySelector(".ask-vault-answer-status")?.textContent).toBe("");
	});
});
