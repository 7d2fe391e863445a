/**
 * The page side of the e2e run: installs the `obsidian` shim as `require('obsidian')`, loads the built
 * dist/main.js the way Obsidian does (a CommonJS function of require/module/exports), and exposes hooks the
 * Node runner drives through Playwright.
 */

import * as obsidian from "../shim/obsidian";
import * as electron from "../shim/electron";
import { type NoteFile, Notes } from "./notes";

interface Manifest {
	id: string;
	name: string;
	version: string;
	minAppVersion: string;
}

interface PluginLike extends obsidian.Plugin {
	settings: Record<string, unknown>;
}

type PluginClass = new (app: obsidian.App, manifest: Manifest) => PluginLike;
type MainFactory = (require: (id: string) => unknown, module: { exports: Record<string, unknown> }, exports: Record<string, unknown>) => void;

declare global {
	interface Window {
		/** Set by /plugin.js, which the static server wraps around dist/main.js. */
		askVaultMain?: MainFactory;
		askVaultHarness: Harness;
	}
}

export interface RequestRecord {
	url: string;
	method: string;
	body: string | null;
}

/** Every request the plugin makes through window.fetch, for the runner to inspect. */
const requests: RequestRecord[] = [];
const realFetch = window.fetch.bind(window);
window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
	const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
	requests.push({ url, method: init?.method ?? "GET", body: typeof init?.body === "string" ? init.body : null });
	return realFetch(input, init);
};

/** Every module id the plugin asked `require` for, in order (a mobile boot must ask for `obsidian` only). */
const required: string[] = [];
let mobile = false;

function shimRequire(id: string): unknown {
	required.push(id);
	if (id === "obsidian") return obsidian;
	// Obsidian mobile has no Electron (nor any Node module): requiring it there is the bug the mobile run catches.
	if (id === "electron" && !mobile) return electron;
	throw new Error(`Cannot find module '${id}' (the e2e page has no Node modules)`);
}

/** Obsidian's Platform on an Android phone (the app's WebView; `http://localhost` is its origin). */
const ANDROID_PHONE = {
	isDesktop: false,
	isMobile: true,
	isDesktopApp: false,
	isMobileApp: true,
	isIosApp: false,
	isAndroidApp: true,
	isPhone: true,
	isTablet: false,
	isMacOS: false,
	isWin: false,
	isLinux: false,
	isSafari: false,
};

class Harness {
	readonly obsidian = obsidian;
	readonly records = obsidian.records;
	readonly requests = requests;
	readonly required = required;
	app: obsidian.App | null = null;
	plugin: PluginLike | null = null;
	notes: Notes | null = null;

	/** Loads the plugin from /plugin.js into a fresh app whose settings point at the sidecar. */
	async boot(options: { sidecarUrl: string; token: string | null; platform?: "desktop" | "mobile" }): Promise<void> {
		if (options.platform === "mobile") {
			mobile = true;
			Object.assign(obsidian.Platform, ANDROID_PHONE);
		}
		const manifest = (await (await window.fetch("/manifest.json")).json()) as Manifest;
		const root = document.getElementById("app");
		if (!root) throw new Error("no #app");
		const app = new obsidian.App(root);
		if (options.token) app.secretStorage.setSecret("ask-vault-token", options.token);
		const factory = window.askVaultMain;
		if (!factory) throw new Error("plugin.js did not load");
		const module: { exports: Record<string, unknown> } = { exports: {} };
		factory(shimRequire, module, module.exports);
		const Main = module.exports.default as PluginClass;
		const plugin = new Main(app, manifest);
		plugin.setData({ sidecarUrl: options.sidecarUrl });
		await plugin.loadAsync();
		app.workspace.setLayoutReady();
		this.app = app;
		this.plugin = plugin;
		this.notes = new Notes(app);
		this.mountNote();
	}

	/** A static note in the main area, so screenshots look like a workspace. */
	private mountNote(): void {
		const main = document.querySelector(".workspace-split.mod-root");
		if (!main) return;
		const note = main.createDiv({ cls: "harness-note" });
		note.createEl("h1", { text: "Homelab" });
		note.createEl("p", { text: "Services on the NAS: Postgres, backups, Kodi. Ask Vault answers from these notes." });
	}

	/** Puts the e2e vault's notes into the shim's Vault (the sidecar reads its own copy from disk). */
	addNotes(files: NoteFile[]): void {
		this.notes?.add(files);
	}

	/** Makes a note the active one, as opening it in the main area would. */
	openNote(path: string): void {
		this.notes?.open(path);
	}

	/** Imitates Obsidian's Page preview from now on: a popover of the hovered note at its heading. */
	enablePagePreview(): void {
		this.notes?.enablePagePreview();
	}

	/** The "Related notes" view, found the way the plugin finds it. */
	relatedView(): obsidian.View | null {
		const leaf = this.app?.workspace.getLeavesOfType("ask-vault-related")[0];
		return leaf?.view ?? null;
	}

	/**
	 * What the "Related notes" view shows: the note it is for (its header; null when hidden), its message line and
	 * whether that is an error, and its entries as listed (title, score, closest passage's trail).
	 */
	related(): { note: string | null; message: string; failed: boolean; entries: { title: string; score: string; trail: string }[] } | null {
		const root = this.relatedView()?.containerEl;
		if (!root) return null;
		const text = (el: Element | null) => el?.textContent ?? "";
		const header = root.querySelector(".ask-vault-related-note");
		const line = root.querySelector(".ask-vault-related-message");
		return {
			note: header && !header.classList.contains("is-hidden") ? text(header) : null,
			message: text(line),
			failed: line?.classList.contains("is-error") ?? false,
			entries: Array.from(root.querySelectorAll(".ask-vault-related-item"), (li) => ({
				title: text(li.querySelector(".ask-vault-related-title")),
				score: text(li.querySelector(".ask-vault-related-score")),
				trail: text(li.querySelector(".ask-vault-related-trail")),
			})),
		};
	}

	/** Opens an `obsidian://` link as scanning a QR code with the phone's camera does. */
	openLink(link: string): boolean {
		return this.app?.openObsidianLink(link) ?? false;
	}

	command(id: string): boolean {
		return this.app?.executeCommandById(`ask-vault:${id}`) ?? false;
	}

	/** The chat view, found the way the plugin finds it (never kept). */
	view(): obsidian.View | null {
		const leaf = this.app?.workspace.getLeavesOfType("ask-vault-chat")[0];
		return leaf?.view ?? null;
	}

	/**
	 * The conversation the chat view shows, oldest turn first: the turn each of its turn views shows (its child
	 * components with a `turn`; the plugin's TurnView class is inside dist/main.js, so it is found by that).
	 */
	turns(): unknown[] {
		const children: readonly object[] = this.view()?.children__() ?? [];
		return children.flatMap((child) => ("turn" in child ? [child.turn] : []));
	}

	/**
	 * Records every distinct text of answer bodies as it changes, and counts the renders that reached one (each
	 * swaps a body's children at once: one DOM change), to prove renders happen while streaming.
	 */
	watchAnswers(): () => { texts: string[]; renders: number } {
		const texts: string[] = [];
		let renders = 0;
		const observer = new MutationObserver((records) => {
			for (const r of records) if (r.type === "childList" && r.target instanceof Element && r.target.matches(".ask-vault-answer-body")) renders += 1;
			const bodies = document.querySelectorAll(".ask-vault-answer-body");
			const last = bodies[bodies.length - 1];
			const text = last?.textContent ?? "";
			if (text !== "" && texts[texts.length - 1] !== text) texts.push(text);
		});
		observer.observe(document.body, { subtree: true, childList: true, characterData: true });
		return () => {
			observer.disconnect();
			return { texts, renders };
		};
	}

	/** The `src` of every `<img>` the shim's renderer makes of `markdown` (a control: raw Markdown images do render). */
	async imagesIn(markdown: string): Promise<string[]> {
		const el = document.createElement("div");
		const component = new obsidian.Component();
		await obsidian.MarkdownRenderer.render(this.app as obsidian.App, markdown, el, "", component);
		return Array.from(el.querySelectorAll("img")).map((img) => img.getAttribute("src") ?? "");
	}

	/** Records the `src` of every `<img>` that enters the page, or whose `src` changes, until stopped. */
	watchImages(): () => string[] {
		const seen: string[] = [];
		const record = (node: Node) => {
			if (!(node instanceof Element)) return;
			const images = node.tagName === "IMG" ? [node] : Array.from(node.querySelectorAll("img"));
			for (const img of images) seen.push(img.getAttribute("src") ?? "");
		};
		const observer = new MutationObserver((mutations) => {
			for (const m of mutations) {
				if (m.type === "attributes") record(m.target);
				else m.addedNodes.forEach(record);
			}
		});
		observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["src"] });
		return () => {
			observer.disconnect();
			return seen;
		};
	}

	unload(): void {
		this.plugin?.unload();
	}
}

window.askVaultHarness = new Harness();
