/** Shared set-up for the view tests: the plugin loaded from source into jsdom through the `obsidian` shim, with a fake sidecar behind `window.fetch`. */
import type { App, PluginManifest } from "obsidian";
import { afterEach, beforeEach, expect } from "vitest";
import * as shim from "../e2e/shim/obsidian";
import { TOKEN_SECRET_ID, VIEW_TYPE_CHAT } from "../src/constants";
import AskVaultPlugin from "../src/main";
import type { Turn } from "../src/answer/state";
import { ChatView } from "../src/ui/chatView";
import { TurnView } from "../src/ui/turnView";
import { parseAskEvent, type RetrievalEvent } from "../src/sidecar/wire";
import { askLines, bytes, type Call, fixtureJson, jsonResponse, streamResponse } from "./helpers";

export type Route = (call: Call) => Response | Promise<Response>;

// Set afresh before each test; the test files read them through ES live bindings.
export let routes: Record<string, Route>;
export let calls: Call[];
export let app: shim.App;
export let plugin: AskVaultPlugin;

export const retrieval = () => parseAskEvent(askLines()[0]) as RetrievalEvent;

export function ndjson(lines: unknown[], delayMs = 0, signal?: AbortSignal | null): Response {
	return streamResponse(
		lines.map((l) => bytes(`${JSON.stringify(l)}\n`)),
		{ delayMs, signal: signal ?? undefined },
	);
}

export async function waitFor<T>(fn: () => T | null | undefined | false, what: string, timeoutMs = 3000): Promise<T> {
	const start = Date.now();
	for (;;) {
		const v = fn();
		if (v) return v;
		if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 10));
	}
}

export function view(): ChatView {
	const leaf = app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)[0];
	const v = leaf?.view;
	if (!(v instanceof ChatView)) throw new Error("no chat view");
	return v;
}

/** The conversation the chat view shows, oldest turn first: the turn each of its turn views (child components) shows. */
export function turnsOf(v: ChatView): Turn[] {
	const children: readonly unknown[] = (v as unknown as shim.Component).children__();
	return children.flatMap((child) => (child instanceof TurnView ? [child.turn] : []));
}

export const longAnswer = (n: number) => Array.from({ length: n }, (_, i) => ({ type: "token", text: `word${i} ` }));

export const metrics = {
	embed_ms: 1,
	retrieval_ms: 1,
	first_token_ms: 1,
	generation_ms: 1,
	total_ms: 3,
	prompt_tokens: 10,
	completion_tokens: 5,
};

/** Records every `<img>` that enters `root` (added, or its src set) and each distinct text of the answer body. */
export function watchAnswer(root: HTMLElement): { images: string[]; texts: string[]; stop: () => void } {
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

/** Counts the renders that reached an answer body in `root`: each one swaps the body's children at once (one DOM change). */
export function watchRenders(root: HTMLElement): { count: () => number; stop: () => void } {
	let count = 0;
	const observer = new MutationObserver((records) => {
		for (const r of records) if (r.target.instanceOf(Element) && r.target.matches(".ask-vault-answer-body")) count += 1;
	});
	observer.observe(root, { subtree: true, childList: true });
	return { count: () => count, stop: () => observer.disconnect() };
}

/**
 * Registers the per-test set-up: a fresh app and plugin with the chat view open, and default routes (an event
 * stream with the golden status, the golden answer, the golden chunk). Call it once at the top of a view test file.
 */
export function useChatView(): void {
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
}
