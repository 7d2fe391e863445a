/** Ask Vault's entry point: the plugin lifecycle only; everything else lives in src/. */

import { Plugin } from "obsidian";
import { CHAT_ICON, HOVER_SOURCE_DISPLAY, RELATED_HOVER_DISPLAY, VIEW_TYPE_CHAT, VIEW_TYPE_RELATED } from "./constants";
import { registerCommands } from "./plugin/commands";
import { SidecarConnection } from "./plugin/connection";
import type { AskInput } from "./plugin/host";
import { RemoteStore } from "./plugin/remoteStore";
import { TokenStore } from "./plugin/tokenStore";
import { type AskVaultSettings, DEFAULT_SETTINGS, parseSettings } from "./settings";
import { fieldsFromParams, PAIR_ACTION } from "./sidecar/pairing";
import { ChatView } from "./ui/chatView";
import { commandModals } from "./ui/modals";
import { RelatedView } from "./ui/relatedView";
import { AskVaultSettingTab } from "./ui/settingTab";
import { StatusBar } from "./ui/statusBar";

export default class AskVaultPlugin extends Plugin {
	settings: AskVaultSettings = { ...DEFAULT_SETTINGS };
	connection!: SidecarConnection;

	async onload(): Promise<void> {
		this.settings = parseSettings(await this.loadData());
		// Streaming needs fetch: Obsidian's requestUrl buffers whole bodies (see README).
		this.connection = new SidecarConnection(
			this.app,
			() => this.settings,
			new TokenStore(this.app),
			new RemoteStore(this.app),
			(url, init) => window.fetch(url, init),
		);

		this.registerView(VIEW_TYPE_CHAT, (leaf) => new ChatView(leaf, this));
		this.registerHoverLinkSource(VIEW_TYPE_CHAT, { display: HOVER_SOURCE_DISPLAY, defaultMod: false });
		this.registerView(VIEW_TYPE_RELATED, (leaf) => new RelatedView(leaf, this));
		this.registerHoverLinkSource(VIEW_TYPE_RELATED, { display: RELATED_HOVER_DISPLAY, defaultMod: false });
		this.addRibbonIcon(CHAT_ICON, "Open chat", () => void this.openChat());
		const modals = commandModals(this.app, this);
		registerCommands(this, this, modals);
		// The link `askvault pair` prints (and its QR code holds) opens the pairing modal, filled in.
		this.registerObsidianProtocolHandler(PAIR_ACTION, (params) => modals.connectRemote(fieldsFromParams(params)));
		this.addSettingTab(new AskVaultSettingTab(this.app, this, this));

		const statusEl = this.addStatusBarItem();
		const statusBar = new StatusBar(statusEl, this.connection.state, () => this.connection.reconnect());
		this.registerDomEvent(statusEl, "click", () => statusBar.explain());
		this.register(this.connection.onChange((state) => statusBar.update(state)));

		this.app.workspace.onLayoutReady(() => void this.connection.start());
		this.register(() => this.connection.stop());
	}

	async saveSettings(): Promise<void> {
		await this.saveData(this.settings);
	}

	/** Reveals the chat pane in the right sidebar (creating it if needed) and returns its view. */
	async openChat(): Promise<ChatView | null> {
		const view = await this.revealSideView(VIEW_TYPE_CHAT, true);
		return view instanceof ChatView ? view : null;
	}

	/** Reveals "Related notes" in the right sidebar without taking focus from the note it follows. */
	async openRelated(): Promise<RelatedView | null> {
		const view = await this.revealSideView(VIEW_TYPE_RELATED, false);
		return view instanceof RelatedView ? view : null;
	}

	private async revealSideView(type: string, active: boolean): Promise<unknown> {
		const { workspace } = this.app;
		let leaf = workspace.getLeavesOfType(type)[0] ?? null;
		if (!leaf) {
			leaf = workspace.getRightLeaf(false);
			if (!leaf) return null;
			await leaf.setViewState({ type, active });
		}
		await workspace.revealLeaf(leaf);
		await leaf.loadIfDeferred();
		return leaf.view;
	}

	async askInChat(input: AskInput): Promise<void> {
		const view = await this.openChat();
		view?.ask(input);
	}
}
