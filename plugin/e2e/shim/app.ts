/** The App (vault, workspace, registries, status bar, ribbon), commands, the plugin manifest and the Plugin base class. */

import { Component } from "./core";
import type { PluginSettingTab } from "./setting";
import { setIcon } from "./ui";
import { MetadataCache, SecretStorage, Vault } from "./vault";
import { Workspace, type ViewCreator } from "./workspace";

export class App {
	readonly vault = new Vault();
	readonly metadataCache = new MetadataCache();
	readonly secretStorage = new SecretStorage();
	readonly workspace: Workspace;
	readonly viewRegistry = new Map<string, ViewCreator>();
	readonly commands = new Map<string, Command>();
	readonly settingTabs: PluginSettingTab[] = [];
	readonly hoverSources = new Map<string, { display: string; defaultMod: boolean }>();
	/** `obsidian://ACTION?...` handlers by action, as `registerObsidianProtocolHandler` leaves them. */
	readonly protocolHandlers = new Map<string, (params: ObsidianProtocolData) => unknown>();
	/** Obsidian keeps these in the window's localStorage, per vault; the shim keeps them per App. */
	private readonly local = new Map<string, string>();
	readonly statusBarEl: HTMLElement;
	readonly ribbonEl: HTMLElement;
	lastEvent: unknown = null;
	constructor(root: HTMLElement = document.body) {
		this.ribbonEl = root.createDiv({ cls: "side-dock-ribbon" });
		const main = root.createDiv({ cls: "workspace" });
		const rootSplit = main.createDiv({ cls: "workspace-split mod-root" });
		const right = main.createDiv({ cls: "workspace-split mod-right-split" });
		this.statusBarEl = root.createDiv({ cls: "status-bar" });
		this.workspace = new Workspace(this, rootSplit, right);
	}
	/** Like Obsidian: JSON in, JSON out; null when unset; `null` data removes the key. */
	loadLocalStorage(key: string): unknown {
		const raw = this.local.get(key);
		return raw === undefined ? null : (JSON.parse(raw) as unknown);
	}
	saveLocalStorage(key: string, data: unknown): void {
		if (data === null || data === undefined) this.local.delete(key);
		else this.local.set(key, JSON.stringify(data));
	}
	/** Opens an `obsidian://` link the way the OS hands one to Obsidian: the action's handler gets the params. */
	openObsidianLink(link: string): boolean {
		const url = new URL(link);
		const action = url.host || url.pathname.replace(/^\/+/, "");
		const handler = this.protocolHandlers.get(action);
		if (!handler) return false;
		const params: ObsidianProtocolData = { action };
		url.searchParams.forEach((value, key) => (params[key] = value));
		void handler(params);
		return true;
	}
	/** Runs a command the way the palette does (checkCallback first). */
	executeCommandById(id: string): boolean {
		const cmd = this.commands.get(id);
		if (!cmd) return false;
		if (cmd.callback) {
			void cmd.callback();
			return true;
		}
		if (cmd.checkCallback) return cmd.checkCallback(false) !== false;
		return false;
	}
}

export interface ObsidianProtocolData {
	action: string;
	[key: string]: string;
}

export interface Command {
	id: string;
	name: string;
	icon?: string;
	hotkeys?: unknown[];
	callback?: () => unknown;
	checkCallback?: (checking: boolean) => boolean | void;
	editorCallback?: (...args: unknown[]) => unknown;
	editorCheckCallback?: (...args: unknown[]) => boolean | void;
}

export interface PluginManifest {
	id: string;
	name: string;
	version: string;
	minAppVersion: string;
	dir?: string;
}

export class Plugin extends Component {
	private data: unknown = null;
	constructor(
		readonly app: App,
		readonly manifest: PluginManifest,
	) {
		super();
	}
	/** Like Obsidian: awaits the (possibly async) onload before the plugin counts as loaded. */
	async loadAsync(): Promise<void> {
		this._loaded = true;
		await this.onload();
	}
	addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = this.app.ribbonEl.createEl("div", { cls: "side-dock-ribbon-action", attr: { "aria-label": title, "data-icon": icon } });
		setIcon(el, icon);
		el.addEventListener("click", (evt) => callback(evt));
		this.register(() => el.detach());
		return el;
	}
	addStatusBarItem(): HTMLElement {
		const el = this.app.statusBarEl.createDiv({ cls: "status-bar-item" });
		this.register(() => el.detach());
		return el;
	}
	addCommand(command: Command): Command {
		const full = { ...command, id: `${this.manifest.id}:${command.id}` };
		this.app.commands.set(full.id, full);
		this.register(() => this.app.commands.delete(full.id));
		return full;
	}
	removeCommand(id: string): void {
		this.app.commands.delete(`${this.manifest.id}:${id}`);
	}
	addSettingTab(tab: PluginSettingTab): void {
		this.app.settingTabs.push(tab);
	}
	registerView(type: string, creator: ViewCreator): void {
		this.app.viewRegistry.set(type, creator);
		this.register(() => {
			this.app.viewRegistry.delete(type);
			this.app.workspace.detachLeavesOfType(type);
		});
	}
	registerHoverLinkSource(id: string, info: { display: string; defaultMod: boolean }): void {
		this.app.hoverSources.set(id, info);
		this.register(() => this.app.hoverSources.delete(id));
	}
	registerObsidianProtocolHandler(action: string, handler: (params: ObsidianProtocolData) => unknown): void {
		this.app.protocolHandlers.set(action, handler);
		this.register(() => this.app.protocolHandlers.delete(action));
	}
	async loadData(): Promise<unknown> {
		return this.data === null ? null : structuredClone(this.data);
	}
	async saveData(data: unknown): Promise<void> {
		this.data = structuredClone(data);
	}
	/** Test hook: what loadData returns next. */
	setData(data: unknown): void {
		this.data = data;
	}
}
