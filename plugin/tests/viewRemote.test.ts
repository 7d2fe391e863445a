// @vitest-environment jsdom
/** Remote mode in the plugin: pairing from the link (or the command), where the pairing is kept, the requests that follow, an unreachable sidecar, settings, citations. */
import type { App } from "obsidian";
import { describe, expect, it } from "vitest";
import * as shim from "../e2e/shim/obsidian";
import { linktextFor, sentSources } from "../src/answer/citations";
import { REMOTE_STORAGE_KEY, REMOTE_TOKEN_SECRET_ID } from "../src/constants";
import { RemoteStore } from "../src/plugin/remoteStore";
import { notInThisCopy } from "../src/ui/openNote";
import { AskVaultSettingTab } from "../src/ui/settingTab";
import { bodyOf, jsonResponse } from "./helpers";
import { app, calls, plugin, retrieval, routes, turnsOf, useChatView, view, waitFor } from "./viewSetup";

useChatView();

const FP = Array.from({ length: 32 }, (_, i) => (i + 160).toString(16).toUpperCase()).join(":");
const ADDRESS = "192.168.1.5:8765";
const LINK = `obsidian://askvault-pair?address=${encodeURIComponent(ADDRESS)}&fingerprint=${encodeURIComponent(FP)}&code=abcd-efgh`;

interface LocalStorage {
	loadLocalStorage(key: string): unknown;
}

const stored = () => (app as unknown as LocalStorage).loadLocalStorage(REMOTE_STORAGE_KEY);
const remoteCalls = () => calls.filter((c) => c.url.startsWith(`https://${ADDRESS}/`));
const modal = () => document.body.querySelector<HTMLElement>(".ask-vault-remote-modal");
const field = (name: string) => modal()?.querySelector<HTMLInputElement>(`[data-ask-vault-field="${name}"]`) ?? null;
const pairError = () => modal()?.querySelector<HTMLElement>(".ask-vault-pair-error") ?? null;

function type(name: string, value: string): void {
	const el = field(name)!;
	el.value = value;
	el.dispatchEvent(new Event("input"));
}

function connectButton(): HTMLButtonElement {
	return Array.from(modal()!.querySelectorAll("button")).find((b) => b.textContent === "Connect")!;
}

function serveRemote(token = "device-token-1"): void {
	routes["/api/health"] = () => jsonResponse({ ok: true, fingerprint: FP });
	routes["/api/pair"] = (call) => jsonResponse({ token, device: `${String(bodyOf(call).device)} (2)`, fingerprint: FP });
}

/** A pairing stored as the connect modal stores it, then the plugin reconnects to it. */
function pairDirectly(lastReached: number | null): void {
	plugin.connection.remote.set({ address: ADDRESS, fingerprint: FP, device: "Obsidian on Linux", lastReached }, "device-token-1");
	plugin.connection.reconnect();
}

describe("pairing", () => {
	it("the pairing link opens the modal filled in; Connect pairs and every request then goes to the remote sidecar with the device token", async () => {
		serveRemote();
		expect(app.openObsidianLink(LINK)).toBe(true);
		expect(field("address")?.value).toBe(ADDRESS);
		expect(field("fingerprint")?.value).toBe(FP);
		expect(field("code")?.value).toBe("abcd-efgh");
		expect(field("device")?.value).toBe("Obsidian on Linux");
		connectButton().click();
		await waitFor(() => shim.records.notices.find((n) => n.startsWith("Ask Vault: connected")), "the notice");
		expect(shim.records.notices).toContain(`Ask Vault: connected to the sidecar at ${ADDRESS} as "Obsidian on Linux (2)".`);
		expect(modal()).toBeNull();

		const pairCall = remoteCalls().find((c) => c.url.endsWith("/api/pair"));
		expect(bodyOf(pairCall)).toEqual({ code: "ABCD-EFGH", device: "Obsidian on Linux" });
		expect((pairCall?.init.headers as Record<string, string>).Authorization).toBeUndefined();
		// On this device only: local storage and secret storage, nothing in data.json (which syncs).
		expect(stored()).toEqual({ address: ADDRESS, fingerprint: FP, device: "Obsidian on Linux (2)", lastReached: expect.any(Number) as number });
		expect(app.secretStorage.getSecret(REMOTE_TOKEN_SECRET_ID)).toBe("device-token-1");
		expect(JSON.stringify(await (plugin as unknown as shim.Plugin).loadData())).not.toMatch(/device-token|192\.168/);

		const events = await waitFor(() => remoteCalls().find((c) => c.url.endsWith("/api/events")), "events from the remote sidecar");
		expect((events.init.headers as Record<string, string>).Authorization).toBe("Bearer device-token-1");
		const before = calls.length;
		view().ask({ question: "q" });
		await waitFor(() => turnsOf(view())[0]?.status === "done", "the answer");
		const asked = calls.slice(before).filter((c) => c.url.endsWith("/api/ask"));
		expect(asked.map((c) => c.url)).toEqual([`https://${ADDRESS}/api/ask`]);
		expect(plugin.connection.lastEndpoint).toMatchObject({ baseUrl: `https://${ADDRESS}`, via: "remote" });
	});

	it("the command opens the same modal; a pasted link fills it, and what is wrong is said in one sentence", async () => {
		expect(app.executeCommandById("ask-vault:connect-remote")).toBe(true);
		expect(field("address")?.value).toBe("");
		type("link", "https://example.com");
		expect(pairError()?.textContent).toBe("That is not an Ask Vault pairing link: the link `askvault pair` prints starts with obsidian://askvault-pair?.");
		type("link", LINK.replace("abcd-efgh", "abcd-efgo"));
		expect(field("address")?.value).toBe(ADDRESS);
		expect(pairError()?.textContent).toBe("The pairing code is 8 letters and digits such as ABCD-EFGH (never 0, 1, I or O), as `askvault pair` prints it.");
		connectButton().click();
		expect(remoteCalls()).toEqual([]);

		const refusal = "that pairing code is not one this sidecar issued; run `askvault pair` for a new one";
		routes["/api/health"] = () => jsonResponse({ ok: true, fingerprint: FP });
		routes["/api/pair"] = () => jsonResponse({ error: { code: "pairing_refused", message: refusal } }, 403);
		type("code", "ABCD-EFGH");
		connectButton().click();
		await waitFor(() => pairError()?.textContent === refusal, "the refusal");
		expect(stored()).toBeNull();
		expect(shim.records.notices.filter((n) => n.startsWith("Ask Vault: connected"))).toEqual([]);
	});

	it("refuses a sidecar whose health names another certificate, before sending the code", async () => {
		routes["/api/health"] = () => jsonResponse({ ok: true, fingerprint: FP.replace(/^A0/, "00") });
		app.openObsidianLink(LINK);
		connectButton().click();
		await waitFor(() => pairError()?.textContent?.includes("presented a certificate that is not the one you paired with"), "the refusal");
		expect(remoteCalls().map((c) => new URL(c.url).pathname)).toEqual(["/api/health"]);
	});
});

describe("with a remote sidecar", () => {
	it("an unreachable one is named in the chat pane and the status bar with when it was last reached", async () => {
		routes["/api/health"] = () => {
			throw new TypeError("Failed to fetch");
		};
		pairDirectly(new Date(2020, 0, 2, 10, 42).getTime());
		const line = await waitFor(() => {
			const el = view().contentEl.querySelector<HTMLElement>(".ask-vault-connection");
			return el?.textContent?.startsWith("Ask Vault cannot reach") && el;
		}, "the chat pane's line");
		expect(line.textContent).toMatch(
			new RegExp(`^Ask Vault cannot reach the sidecar at ${ADDRESS.replace(/\./g, "\\.")} \\(last reached 2020-01-02 10:42\\): this device could not make a trusted encrypted connection`),
		);
		expect(line.isShown()).toBe(true);
		expect(app.statusBarEl.querySelector(".ask-vault-status")?.getAttribute("aria-label")).toBe(line.textContent);

		serveRemote();
		plugin.connection.reconnect();
		await waitFor(() => !view().contentEl.querySelector<HTMLElement>(".ask-vault-connection")?.isShown(), "the line to go");
	});

	it("the settings tab says where and as whom; Disconnect goes back to the sidecar URL", async () => {
		serveRemote();
		pairDirectly(null);
		const tab = new AskVaultSettingTab(app as unknown as App, plugin, plugin);
		(tab as unknown as shim.PluginSettingTab).show();
		const row = Array.from(tab.containerEl.querySelectorAll<HTMLElement>(".setting-item")).find(
			(r) => r.querySelector(".setting-item-name")?.textContent === "Remote sidecar" && r.querySelector("button"),
		)!;
		expect(row.querySelector(".setting-item-description")?.textContent).toMatch(
			new RegExp(`^Connected to ${ADDRESS.replace(/\./g, "\\.")} as "Obsidian on Linux" \\(certificate SHA-256 A0:A1:A2:A3…; (not reached yet|last reached \\d\\d:\\d\\d)\\)\\.`),
		);
		const disconnect = Array.from(row.querySelectorAll("button")).find((b) => b.textContent === "Disconnect")!;
		disconnect.click();
		await waitFor(() => stored() === null, "the pairing to be forgotten");
		expect(app.secretStorage.getSecret(REMOTE_TOKEN_SECRET_ID)).toBe("");
		expect(row.querySelector(".setting-item-description")?.textContent).toMatch(/^Ask a sidecar on another computer/);
		expect(disconnect.isShown()).toBe(false);
		const before = calls.length;
		await waitFor(() => calls.slice(before).find((c) => c.url === "http://127.0.0.1:27999/api/events"), "events from the local URL");
		(tab as unknown as shim.PluginSettingTab).hide();
	});

	it("a citation opens this device's copy of the note, or says the note is not here", async () => {
		serveRemote();
		pairDirectly(null);
		const v = view();
		v.ask({ question: "q" });
		const cite = await waitFor(() => v.contentEl.querySelector<HTMLElement>("a.ask-vault-citation"), "a citation");
		const source = sentSources(retrieval()).find((s) => s.n === Number(cite.getAttribute("data-ask-vault-n")))!;
		const opened = shim.records.opened.length;
		cite.dispatchEvent(new MouseEvent("click", { bubbles: true }));
		expect(shim.records.notices).toContain(notInThisCopy(source.path));
		expect(shim.records.opened.length).toBe(opened);
		app.vault.addFile__(source.path, "# note");
		cite.dispatchEvent(new MouseEvent("click", { bubbles: true }));
		expect(shim.records.opened.slice(opened)).toEqual([{ linktext: linktextFor(source), sourcePath: "", newLeaf: false, state: null }]);
	});
});

describe("the stored pairing", () => {
	it("is read back after a restart, and last reached is written at most every 30 s", () => {
		const store = new RemoteStore(app as unknown as App);
		store.set({ address: ADDRESS, fingerprint: FP, device: "Pixel 8", lastReached: 1_000 }, " tok ");
		const restarted = () => new RemoteStore(app as unknown as App);
		expect(restarted().current).toEqual({ address: ADDRESS, fingerprint: FP, device: "Pixel 8", lastReached: 1_000, token: "tok" });
		const now = Date.now();
		store.touch(now + 1_000);
		expect(store.current?.lastReached).toBe(now + 1_000);
		expect(restarted().current?.lastReached).toBe(1_000);
		store.touch(now + 31_000);
		expect(restarted().current?.lastReached).toBe(now + 31_000);
		store.clear();
		expect(restarted().current).toBeNull();
		expect(restarted().saved).toBeNull();
	});

	it("a record whose token is gone is not used", () => {
		(app as unknown as { saveLocalStorage(key: string, data: unknown): void }).saveLocalStorage(REMOTE_STORAGE_KEY, {
			address: ADDRESS,
			fingerprint: FP,
			device: "Pixel 8",
			lastReached: null,
		});
		const store = new RemoteStore(app as unknown as App);
		expect(store.saved).not.toBeNull();
		expect(store.current).toBeNull();
	});
});
