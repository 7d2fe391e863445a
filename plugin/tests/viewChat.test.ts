// @vitest-environment jsdom
/** The chat view answering: the golden answer with citations, sources and inspector, date scopes, citation hover and click, follow-ups and the composer. */
import { describe, expect, it } from "vitest";
import * as shim from "../e2e/shim/obsidian";
import { linktextFor, sentSources } from "../src/answer/citations";
import { VIEW_TYPE_CHAT } from "../src/constants";
import { askLines, bodyOf, fixtureJson } from "./helpers";
import { calls, ndjson, retrieval, routes, turnsOf, useChatView, view, waitFor } from "./viewSetup";

useChatView();

describe("chat view", () => {
	it("streams the golden answer with citations, sources and inspector", async () => {
		const v = view();
		v.ask({ question: "and its port?" });
		await waitFor(() => turnsOf(v)[0]?.status === "done" && turnsOf(v)[0], "done");
		const r = retrieval();
		const el = v.contentEl;
		await waitFor(() => el.querySelector(".ask-vault-answer-body")?.textContent?.includes(turnsOf(v)[0]!.text.slice(0, 10)), "render");
		const citations = Array.from(el.querySelectorAll<HTMLElement>(".ask-vault-answer-body a.ask-vault-citation"));
		const answer = turnsOf(v)[0]!.text;
		const sent = sentSources(r);
		const expected = [...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])).filter((n) => sent.some((s) => s.n === n));
		expect(citations.map((c) => Number(c.getAttribute("data-ask-vault-n")))).toEqual(expected);
		for (const c of citations) {
			const source = sent.find((s) => s.n === Number(c.getAttribute("data-ask-vault-n")))!;
			expect(c.getAttribute("data-href")).toBe(linktextFor(source));
		}
		const listed = Array.from(el.querySelectorAll(".ask-vault-source-list li")).map((li) => li.textContent ?? "");
		expect(listed).toHaveLength(sent.length);
		sent.forEach((s, i) => expect(listed[i]).toContain(`[${s.n}] ${s.path}`));
		const rows = el.querySelectorAll(".ask-vault-ranking tbody tr:not(.ask-vault-cut)");
		expect(rows).toHaveLength(r.sources.length);
		expect(el.querySelector(".ask-vault-ranking .ask-vault-cut")).not.toBeNull();
		expect(el.querySelector(".ask-vault-prompt-content")?.textContent).toBe(r.prompt[0]?.content);
		if (r.rewritten) expect(el.querySelector(".ask-vault-query")?.textContent).toContain(`Rewritten query: ${r.query}`);
		const body = bodyOf(calls.find((c) => c.url.endsWith("/api/ask")));
		expect(body).toEqual({ question: "and its port?", k: 8 });
	});

	it.each([
		[
			{ applied: true, notes: 7, fallback_reason: null },
			"Dates: “last week” → 16–22 Nov 2026 (daily-note dates, then modified time; 7 notes)",
			false,
		],
		[
			{ applied: false, notes: 0, fallback_reason: "nothing_in_range" },
			"Dates: “last week” → 16–22 Nov 2026 — ignored: nothing in that range",
			true,
		],
	])("the inspector shows the question's date scope (%o)", async (parts, text, muted) => {
		const date_scope = { phrase: "last week", start: "2026-11-16", end: "2026-11-23", basis: "note_date_then_mtime", ...parts };
		const [first, ...rest] = askLines();
		routes["/api/ask"] = (call) => ndjson([{ ...(first as Record<string, unknown>), date_scope }, ...rest], 0, call.init.signal);
		const v = view();
		v.ask({ question: "what did I cook last week" });
		await waitFor(() => turnsOf(v)[0]?.status === "done" && turnsOf(v)[0], "done");
		const line = await waitFor(() => v.contentEl.querySelector(".ask-vault-query .ask-vault-date-scope"), "dates line");
		expect(line.textContent).toBe(text);
		expect(line.classList.contains("ask-vault-muted")).toBe(muted);
	});

	it("without a date phrase the inspector has no Dates line", async () => {
		const v = view();
		v.ask({ question: "and its port?" });
		await waitFor(() => turnsOf(v)[0]?.status === "done" && turnsOf(v)[0], "done");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-query"), "inspector");
		expect(v.contentEl.querySelector(".ask-vault-date-scope")).toBeNull();
	});

	it("hovering a citation triggers hover-link and shows the fallback card; clicking opens the heading", async () => {
		const v = view();
		v.ask({ question: "q" });
		const cite = await waitFor(() => v.contentEl.querySelector<HTMLElement>("a.ask-vault-citation"), "a citation");
		const source = sentSources(retrieval()).find((s) => s.n === Number(cite.getAttribute("data-ask-vault-n")))!;
		cite.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
		const payload = shim.records.hoverLinks[shim.records.hoverLinks.length - 1]!;
		expect(payload).toMatchObject({ source: VIEW_TYPE_CHAT, linktext: linktextFor(source), sourcePath: "" });
		expect(payload.hoverParent).toBe(v);
		expect(payload.targetEl).toBe(cite);
		expect((payload.event as Event).type).toBe("mouseover");
		const card = await waitFor(() => v.contentEl.querySelector(".ask-vault-hover-card"), "fallback card");
		expect(card.textContent).toContain(source.heading_path.join(" › "));
		expect(card.textContent).toContain(source.text.slice(0, 20));
		expect(card.querySelector(".ask-vault-hover-ranks")?.textContent).toContain("Dense rank");

		cite.dispatchEvent(new MouseEvent("click", { bubbles: true }));
		cite.dispatchEvent(new MouseEvent("click", { bubbles: true, ctrlKey: true }));
		expect(shim.records.opened.slice(-2)).toEqual([
			{ linktext: linktextFor(source), sourcePath: "", newLeaf: false, state: null },
			{ linktext: linktextFor(source), sourcePath: "", newLeaf: "tab", state: null },
		]);
	});

	it("fetches the chunk text for the card when the source has none", async () => {
		const r = retrieval();
		const lines = askLines();
		lines[0] = { ...r, sources: r.sources.map((s) => ({ ...s, text: "" })) };
		routes["/api/ask"] = (call) => ndjson(lines, 0, call.init.signal);
		const v = view();
		v.ask({ question: "q" });
		const cite = await waitFor(() => v.contentEl.querySelector<HTMLElement>("a.ask-vault-citation"), "a citation");
		cite.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
		const card = await waitFor(() => v.contentEl.querySelector(".ask-vault-hover-card .ask-vault-hover-text"), "card");
		const chunk = fixtureJson("chunk.json") as { text: string };
		await waitFor(() => card.isConnected && card.textContent?.startsWith(chunk.text.slice(0, 100)), "chunk text");
		expect(calls.some((c) => c.url.includes("/api/chunks/"))).toBe(true);
	});

	it("follow-ups send the history; New conversation clears it", async () => {
		const v = view();
		v.ask({ question: "first?" });
		await waitFor(() => turnsOf(v)[0]?.status === "done", "first answer");
		v.ask({ question: "and then?", context: "ctx", text: "and then? (scoped)", filters: { folder: "Homelab" } });
		await waitFor(() => turnsOf(v)[1]?.status === "done", "second answer");
		const asks = calls.filter((c) => c.url.endsWith("/api/ask")).map((c) => bodyOf(c));
		expect(asks[1]).toEqual({
			question: "and then? (scoped)",
			k: 8,
			filters: { folder: "Homelab" },
			history: [
				{ role: "user", content: "first?" },
				{ role: "assistant", content: turnsOf(v)[0]!.text },
			],
		});
		expect(v.contentEl.querySelectorAll(".ask-vault-turn")).toHaveLength(2);
		v.contentEl.querySelector<HTMLButtonElement>(".ask-vault-new")!.click();
		expect(v.contentEl.querySelectorAll(".ask-vault-turn")).toHaveLength(0);
		expect(turnsOf(v)).toEqual([]);
		// The turn views are unloaded, and the components of their answers' renders with them.
		expect((v as unknown as shim.Component).childCount).toBe(0);
		v.ask({ question: "fresh" });
		await waitFor(() => turnsOf(v)[0]?.status === "done", "fresh answer");
		const last = bodyOf(calls.filter((c) => c.url.endsWith("/api/ask")).pop());
		expect(last.history).toBeUndefined();
	});

	it("the composer sends on Enter", async () => {
		const v = view();
		const input = v.contentEl.querySelector<HTMLTextAreaElement>(".ask-vault-input")!;
		input.value = "typed question";
		input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
		await waitFor(() => turnsOf(v)[0]?.status === "done", "answer");
		expect(turnsOf(v)[0]?.question).toBe("typed question");
		expect(input.value).toBe("");
	});
});
