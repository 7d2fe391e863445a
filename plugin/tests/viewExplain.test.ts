// @vitest-environment jsdom
/** "Why not…?" in the chat view: the control on a finished turn, the fuzzy note picker, the explanation in the inspector. */
import { describe, expect, it } from "vitest";
import { bodyOf, fixtureJson, jsonResponse } from "./helpers";
import { app, calls, ndjson, retrieval, routes, turnsOf, useChatView, view, waitFor } from "./viewSetup";

useChatView();

const VAULT = ["Homelab/Backups.md", "Homelab/Kodi.md", "Homelab/Postgres.md", "Journal/2026-11-02.md", "Recipes/Rye bread.md", "Recipes/photo.png"];
const golden = () => fixtureJson("explain.json") as { summary: string; note: { path: string } };
const explains = () => calls.filter((c) => c.url.endsWith("/api/explain")).map((c) => bodyOf(c));

async function answered() {
	for (const path of VAULT) app.vault.addFile__(path);
	const v = view();
	v.ask({ question: "and which port does it use?" });
	await waitFor(() => turnsOf(v)[0]?.status === "done", "the answer");
	return v;
}

function whyNot(root: HTMLElement): HTMLButtonElement {
	const button = root.querySelector<HTMLButtonElement>("button.ask-vault-why-not");
	if (!button) throw new Error("no Why not… button");
	return button;
}

/** Opens the picker, types `query`, waits for `note` to come first and chooses it; returns what it listed before typing. */
async function pick(root: HTMLElement, query: string, note: string): Promise<string[]> {
	whyNot(root).click();
	const input = await waitFor(() => document.querySelector<HTMLInputElement>(".prompt-input"), "the note picker");
	const before = Array.from(document.querySelectorAll(".suggestion-item")).map((el) => el.textContent ?? "");
	input.value = query;
	input.dispatchEvent(new Event("input"));
	const first = await waitFor(() => {
		const el = document.querySelector<HTMLElement>(".suggestion-item");
		return el?.textContent === note && el;
	}, `${note} first`);
	first.click();
	return before;
}

const rows = (root: Element, selector: string) =>
	Array.from(root.querySelectorAll(`${selector} .ask-vault-fact`)).map((r) => [r.querySelector("dt")?.textContent, r.querySelector("dd")?.textContent]);

describe("Why not…?", () => {
	it("picks a note (the turn's ranked notes first, Markdown only) and explains it against the searched query", async () => {
		routes["/api/explain"] = () => jsonResponse(fixtureJson("explain.json"));
		const v = await answered();
		const el = v.contentEl;
		const listed = await pick(el, "kodi", "Homelab/Kodi.md");
		// The golden retrieval ranked Postgres, the journal note, then Recipes/Soup.md, which this vault does not
		// hold; the rest follow by path.
		expect(listed).toEqual(["Homelab/Postgres.md", "Journal/2026-11-02.md", "Homelab/Backups.md", "Homelab/Kodi.md", "Recipes/Rye bread.md"]);
		const summary = await waitFor(() => el.querySelector(".ask-vault-explain-summary"), "the explanation");
		expect(explains()).toEqual([{ question: retrieval().query, note: "Homelab/Kodi.md", k: 8 }]);
		const panel = el.querySelector(".ask-vault-explain-result")!;
		// The summary comes first, right under the note it is about.
		expect(Array.from(panel.children).slice(0, 2).map((c) => c.textContent)).toEqual(["Oncall · Work/Oncall.md", golden().summary]);
		expect(summary.classList.contains("is-unsent")).toBe(true);
		expect(rows(panel, ".ask-vault-explain-status")).toEqual([
			["Status", "Indexed"],
			["Chunks", "1"],
			["Indexed at", "2026-12-01 10:00 UTC"],
		]);
		const legs = Array.from(panel.querySelectorAll(".ask-vault-explain-legs tbody tr")).map((tr) =>
			Array.from(tr.querySelectorAll("td")).map((td) => td.textContent),
		);
		expect(legs).toEqual([
			["Dense", "On-call", "8", "0.116", "4–6"],
			["Keyword", "On-call", "7", "0.616", "4–6"],
			["Fused", "On-call", "8", "0.3320", "4–6"],
		]);
		expect(rows(panel, ".ask-vault-explain-outcome")).toEqual([
			["Sent to the model", "No"],
			["Cut line", "Top 8 asked for, 6 sent; last score inside 0.3320"],
			["Matched terms", "mainten"],
			["Missing terms", "kodi"],
		]);
		expect(rows(panel, ".ask-vault-explain-factors")).toEqual([
			["Prompt budget", "It ranked 8th of the 8 sources asked for, but the prompt holds at most 6."],
		]);
		expect(rows(panel, ".ask-vault-explain-relevance-facts")[0]).toEqual(["Decision", "Answered from the notes"]);
		expect(el.querySelector("details.ask-vault-inspector")?.hasAttribute("open")).toBe(true);
		// The explanation stays put while the rest of the inspector redraws.
		expect(el.querySelector(".ask-vault-inspector > .ask-vault-explain")).not.toBeNull();
	});

	it("an excluded note: its status and the rule, no legs, no title", async () => {
		routes["/api/explain"] = () =>
			jsonResponse({
				...(fixtureJson("explain.json") as object),
				note: {
					path: "Recipes/Rye bread.md",
					title: null,
					status: "excluded",
					indexed_at: null,
					chunks: 0,
					reason: { rule: "frontmatter-opt-out", detail: "The note opts out with `askvault: false` in its front matter." },
				},
				best: { dense: null, keyword: null, fused: null },
				summary: "Excluded from the index by its front matter.",
				factors: [],
			});
		const v = await answered();
		await pick(v.contentEl, "rye", "Recipes/Rye bread.md");
		const panel = await waitFor(() => v.contentEl.querySelector(".ask-vault-explain-result:has(.ask-vault-explain-summary)"), "the explanation");
		expect(panel.querySelector(".ask-vault-explain-note")?.textContent).toBe("Recipes/Rye bread.md");
		expect(rows(panel, ".ask-vault-explain-status")).toEqual([["Status", "Excluded from the index"]]);
		expect(rows(panel, ".ask-vault-explain-reason")).toEqual([
			["Reason", "The note opts out with `askvault: false` in its front matter. (frontmatter-opt-out)"],
		]);
		expect(panel.querySelector(".ask-vault-explain-legs")).toBeNull();
		expect(panel.querySelector(".ask-vault-explain-factors")).toBeNull();
	});

	it("shows the sidecar's error as written", async () => {
		routes["/api/explain"] = () => jsonResponse({ error: { code: "bad_request", message: "note must be a vault-relative path" } }, 400);
		const v = await answered();
		await pick(v.contentEl, "rye", "Recipes/Rye bread.md");
		const error = await waitFor(() => v.contentEl.querySelector(".ask-vault-explain-result .ask-vault-error"), "the error");
		expect(error.textContent).toBe("note must be a vault-relative path (bad_request)");
		expect(error.getAttribute("role")).toBe("alert");
		expect(explains()[0]?.note).toBe("Recipes/Rye bread.md");
	});

	it("a second pick wins even when the first answer comes back last", async () => {
		const releases: (() => void)[] = [];
		routes["/api/explain"] = async (call) => {
			const note = bodyOf(call).note as string;
			const body = { ...(fixtureJson("explain.json") as object), summary: `About ${note}.` };
			if (note === "Homelab/Backups.md") await new Promise<void>((r) => releases.push(r));
			return jsonResponse(body);
		};
		const v = await answered();
		await pick(v.contentEl, "backups", "Homelab/Backups.md");
		await waitFor(() => releases.length === 1, "the first request");
		await pick(v.contentEl, "rye", "Recipes/Rye bread.md");
		const summary = () => v.contentEl.querySelector(".ask-vault-explain-summary")?.textContent;
		await waitFor(() => summary() === "About Recipes/Rye bread.md.", "the second explanation");
		releases[0]!();
		await new Promise((r) => setTimeout(r, 20));
		expect(summary()).toBe("About Recipes/Rye bread.md.");
	});

	it("asking the turn again clears the explanation, which was about the previous search", async () => {
		routes["/api/explain"] = () => jsonResponse(fixtureJson("explain.json"));
		const v = await answered();
		await pick(v.contentEl, "kodi", "Homelab/Kodi.md");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-explain-summary"), "the explanation");
		v.retry(turnsOf(v)[0]!.id);
		await waitFor(() => turnsOf(v)[0]?.status === "done", "the answer again");
		expect(v.contentEl.querySelector(".ask-vault-explain-summary")).toBeNull();
		expect(whyNot(v.contentEl).textContent).toBe("Why not…?");
	});

	it("is not offered on a turn that failed", async () => {
		routes["/api/ask"] = (call) => ndjson([{ type: "error", code: "model_missing", message: "ollama pull x" }], 0, call.init.signal);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => turnsOf(v)[0]?.status === "error", "the error");
		expect(v.contentEl.querySelector("button.ask-vault-why-not")).toBeNull();
	});
});
