// @vitest-environment jsdom
/** The plugin's wiring (commands, hover source, view, live status bar, unload) and its Reindex, Search and Ask-about-note commands. */
import { describe, expect, it } from "vitest";
import * as shim from "../e2e/shim/obsidian";
import { linktextFor } from "../src/answer/citations";
import { VIEW_TYPE_CHAT, VIEW_TYPE_RELATED } from "../src/constants";
import { bodyOf, bytes, fixtureJson, jsonResponse } from "./helpers";
import { app, calls, plugin, routes, turnsOf, useChatView, view, waitFor } from "./viewSetup";

useChatView();

describe("plugin wiring", () => {
	it("registers commands without hotkeys, the hover source, the view and a live status bar", async () => {
		const ids = [...app.commands.keys()].sort();
		expect(ids).toEqual(
			["ask", "ask-about-note", "ask-about-selection", "connect-remote", "open-chat", "open-related", "reindex", "search"].map((id) => `ask-vault:${id}`).sort(),
		);
		for (const cmd of app.commands.values()) expect(cmd.hotkeys).toBeUndefined();
		expect(app.hoverSources.get(VIEW_TYPE_CHAT)).toEqual({ display: "Ask Vault", defaultMod: false });
		expect(app.hoverSources.get(VIEW_TYPE_RELATED)).toEqual({ display: "Ask Vault related notes", defaultMod: false });
		expect([...app.viewRegistry.keys()].sort()).toEqual([VIEW_TYPE_CHAT, VIEW_TYPE_RELATED]);
		const status = await waitFor(
			() => app.statusBarEl.querySelector(".ask-vault-status")?.textContent?.startsWith("Ask Vault: ") && app.statusBarEl.textContent,
			"status",
		);
		expect(status).not.toContain("disconnected");
		// The golden status: ready, with the built-in embedder, and the chat model missing.
		expect(status).toBe("Ask Vault: ready · built-in all-MiniLM-L6-v2, 384-d · chat model missing — ollama pull llama3.2:3b");
		// The tooltip carries the index status, which embedder and why, and redacted secrets.
		const tooltip = app.statusBarEl.querySelector(".ask-vault-status")?.getAttribute("aria-label") ?? "";
		expect(tooltip).toContain("152 notes, 1480 chunks indexed.");
		expect(tooltip).toContain("Embedder: built-in all-MiniLM-L6-v2, 384-d (built in).");
		expect(tooltip).toContain("Secrets redacted from the index: 3 (password 2, aws-access-key 1).");
		const eventsCall = calls.find((c) => c.url.endsWith("/api/events"));
		expect((eventsCall?.init.headers as Record<string, string>).Authorization).toBe("Bearer tok-view");
	});

	it("after an index run the status is fetched again, so redaction counts stay current", async () => {
		let push: (event: unknown) => void = () => undefined;
		routes["/api/events"] = (call) =>
			new Response(
				new ReadableStream<Uint8Array>({
					start(controller) {
						push = (event) => controller.enqueue(bytes(`${JSON.stringify(event)}\n`));
						push({ type: "status", status: fixtureJson("status.json") });
						call.init.signal?.addEventListener("abort", () => controller.error(new DOMException("Aborted", "AbortError")));
					},
				}),
			);
		const after = structuredClone(fixtureJson("status.json")) as { index: { redactions: { total: number; by_kind: Record<string, number> } } };
		after.index.redactions = { total: 4, by_kind: { "aws-access-key": 1, password: 2, iban: 1 } };
		routes["/api/status"] = () => jsonResponse(after);
		plugin.connection.reconnect();
		const tooltip = () => app.statusBarEl.querySelector(".ask-vault-status")?.getAttribute("aria-label") ?? "";
		await waitFor(() => calls.filter((c) => c.url.endsWith("/api/events")).length >= 2 && tooltip().includes("3 (password 2"), "reconnected");
		push({ type: "index", state: "indexing", done: 1, total: 152 });
		push({ type: "index", state: "idle", done: 152, total: 152 });
		await waitFor(() => tooltip().includes("Secrets redacted from the index: 4 (password 2, aws-access-key 1, iban 1)."), "refreshed");
		expect(calls.filter((c) => c.url.endsWith("/api/status"))).toHaveLength(1);
	});

	it("never writes the token into data.json", async () => {
		await plugin.saveSettings();
		const saved = JSON.stringify(await (plugin as unknown as shim.Plugin).loadData());
		expect(saved).not.toContain("tok-view");
	});

	it("unloading stops the event stream and removes the view", async () => {
		const eventsCall = await waitFor(() => calls.find((c) => c.url.endsWith("/api/events")), "events call");
		(plugin as unknown as shim.Plugin).unload();
		await waitFor(() => eventsCall.init.signal?.aborted, "events abort");
		expect(app.viewRegistry.has(VIEW_TYPE_CHAT)).toBe(false);
		expect(app.viewRegistry.has(VIEW_TYPE_RELATED)).toBe(false);
		expect(app.commands.size).toBe(0);
	});
});

describe("commands", () => {
	it("Reindex vault: 409 says already indexing", async () => {
		routes["/api/reindex"] = () => jsonResponse({ error: { code: "conflict", message: "an index run is in progress" } }, 409);
		app.executeCommandById("ask-vault:reindex");
		await waitFor(() => shim.records.notices.includes("Ask Vault is already indexing."), "notice");
		routes["/api/reindex"] = () => jsonResponse({ accepted: true }, 202);
		app.executeCommandById("ask-vault:reindex");
		await waitFor(() => shim.records.notices.includes("Ask Vault: reindexing started."), "notice");
	});

	it("Search vault lists results and opens the chosen one at its heading", async () => {
		routes["/api/search"] = () => jsonResponse(fixtureJson("search.json"));
		app.executeCommandById("ask-vault:search");
		const input = await waitFor(() => document.querySelector<HTMLInputElement>(".prompt-input"), "search input");
		input.value = "kodi maintenance";
		input.dispatchEvent(new Event("input"));
		const first = await waitFor(() => document.querySelector<HTMLElement>(".suggestion-item"), "a result");
		const results = (fixtureJson("search.json") as { results: { title: string; path: string; heading_path: string[]; start_line: number }[] }).results;
		expect(first.querySelector(".ask-vault-search-title")?.textContent).toBe(results[0]!.title);
		first.click();
		expect(shim.records.opened.pop()).toMatchObject({ linktext: linktextFor(results[0]!), newLeaf: false });
		const body = bodyOf(calls.find((c) => c.url.endsWith("/api/search")));
		expect(body).toEqual({ query: "kodi maintenance", k: 8 });
	});

	it("Search vault marks a result that is mostly template lines beside its ranks", async () => {
		const body = structuredClone(fixtureJson("search.json")) as { results: Record<string, unknown>[] };
		Object.assign(body.results[0]!, { boosts: ["boilerplate"], noise: { template: 100, links: 0, query: 0, informative: 0 } });
		routes["/api/search"] = () => jsonResponse(body);
		app.executeCommandById("ask-vault:search");
		const input = await waitFor(() => document.querySelector<HTMLInputElement>(".prompt-input"), "search input");
		input.value = "kodi maintenance";
		input.dispatchEvent(new Event("input"));
		await waitFor(() => document.querySelectorAll(".suggestion-item").length === body.results.length, "the results");
		const items = Array.from(document.querySelectorAll(".suggestion-item"));
		expect(items.map((i) => i.querySelector(".ask-vault-search-ranks .ask-vault-noise")?.textContent ?? null)).toEqual([
			"template 100%",
			...body.results.slice(1).map(() => null),
		]);
		expect(items[0]!.querySelector(".ask-vault-noise")?.getAttribute("aria-label")).toBe(
			"Mostly lines this vault repeats across many notes (templates, footers); it ranks below passages that say more.",
		);
	});

	it("Ask about current note scopes to the note's folder; the answer opens in the chat", async () => {
		const file = Object.assign(new shim.TFile(), { path: "Homelab/Postgres.md", basename: "Postgres", extension: "md" });
		app.workspace.activeFile = file;
		expect(app.executeCommandById("ask-vault:ask-about-note")).toBe(true);
		const textarea = await waitFor(() => document.querySelector<HTMLTextAreaElement>(".modal .ask-vault-input"), "modal");
		textarea.value = "which port?";
		textarea.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
		const v = view();
		await waitFor(() => turnsOf(v)[0]?.status === "done", "answer");
		const body = bodyOf(calls.find((c) => c.url.endsWith("/api/ask")));
		expect(body).toMatchObject({ question: 'About the note "Postgres": which port?', filters: { folder: "Homelab" } });
		expect(v.contentEl.querySelector(".ask-vault-question-context")?.textContent).toBe('About "Postgres"');
		app.workspace.activeFile = null;
		const cmd = app.commands.get("ask-vault:ask-about-note")!;
		expect(cmd.checkCallback?.(true)).toBe(false);
	});
});
