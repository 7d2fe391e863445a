/** The settings tab: where the sidecar is, its token, which embedder it uses, how many sources to use, a remote sidecar, and how to start the sidecar. */

import { type App, Notice, type Plugin, PluginSettingTab, type Setting, type SettingDefinitionItem } from "obsidian";
import { describeCheck, describeEmbedderSetting } from "../answer/embedder";
import { describeConnection } from "../answer/status";
import { Debounced } from "../plugin/debounce";
import type { SettingsHost } from "../plugin/host";
import { DEFAULT_SETTINGS, describeSourceCount, normaliseUrl, parseTopK, TOP_K_MAX, TOP_K_MIN } from "../settings";
import type { Timers } from "../sidecar/events";
import { processGroup } from "./processSettings";
import { remoteGroup } from "./remoteSettings";
import { renderItems, type TabItem } from "./settingDefinitions";

const windowTimers: Timers = { setTimeout: (fn, ms) => window.setTimeout(fn, ms), clearTimeout: (id) => window.clearTimeout(id) };

export class AskVaultSettingTab extends PluginSettingTab {
	/** Typing the URL or token reconnects once typing pauses (or the field is left), not at every keystroke. */
	private readonly urlInput: Debounced<string>;
	private readonly tokenInput: Debounced<string>;
	/** Bumped by every reconnect and check, so the answer of an earlier check never overwrites a newer state. */
	private generation = 0;
	private cleanups: (() => void)[] = [];

	constructor(
		app: App,
		plugin: Plugin,
		private readonly host: SettingsHost,
		timers: Timers = windowTimers,
	) {
		super(app, plugin);
		this.urlInput = new Debounced((url) => void this.applyUrl(url), timers);
		this.tokenInput = new Debounced((token) => this.applyToken(token), timers);
	}

	/** Obsidian 1.13+ renders (and searches) these; older versions call display(), which renders the same rows. */
	getSettingDefinitions(): SettingDefinitionItem[] {
		return this.items();
	}

	display(): void {
		this.runCleanups();
		this.containerEl.empty();
		this.cleanups = renderItems(this.containerEl, this.items());
	}

	hide(): void {
		this.runCleanups();
		super.hide();
	}

	private runCleanups(): void {
		const cleanups = this.cleanups;
		this.cleanups = [];
		cleanups.forEach((cleanup) => cleanup());
	}

	private items(): TabItem[] {
		const { connection } = this.host;
		const tokenDesc = connection.tokens.persistent
			? "Printed by `askvault token`. Kept in Obsidian's secret storage, never in the plugin's data file."
			: "Printed by `askvault token`. This Obsidian version has no secret storage, so it is kept in memory until Obsidian restarts.";
		return [
			{
				name: "Sidecar URL",
				desc: "Where `askvault serve` listens. A sidecar found for this vault on this computer is used instead.",
				render: (setting) => this.renderUrl(setting),
			},
			{
				name: "Token",
				desc: `${tokenDesc} Leave empty when the sidecar runs on this computer: the plugin reads it from the sidecar's data folder.`,
				render: (setting) => this.renderToken(setting),
			},
			{ name: "Connection", render: (setting) => this.renderConnection(setting) },
			{ name: "Embedder", render: (setting) => this.renderEmbedder(setting) },
			{
				name: "Sources per question",
				desc: describeSourceCount(this.host.settings.topK),
				render: (setting) => this.renderTopK(setting),
			},
			remoteGroup(this.app, connection),
			processGroup(this.host),
		];
	}

	private renderUrl(setting: Setting): () => void {
		setting.addText((text) => {
			text
				.setPlaceholder(DEFAULT_SETTINGS.sidecarUrl)
				.setValue(this.host.settings.sidecarUrl)
				.onChange((value) => {
					const url = normaliseUrl(value);
					text.inputEl.toggleClass("ask-vault-invalid", url === null);
					if (url !== null) this.urlInput.push(url);
				});
			text.inputEl.addEventListener("blur", () => this.urlInput.flush());
		});
		return () => this.urlInput.flush();
	}

	private renderToken(setting: Setting): () => void {
		const { tokens } = this.host.connection;
		setting.addText((text) => {
			text.inputEl.type = "password";
			text.inputEl.autocomplete = "off";
			text.setPlaceholder(tokens.get() ? "•••••••• (set)" : "Not set").onChange((value) => this.tokenInput.push(value));
			text.inputEl.addEventListener("blur", () => this.tokenInput.flush());
		});
		return () => this.tokenInput.flush();
	}

	private async applyUrl(url: string): Promise<void> {
		if (url === this.host.settings.sidecarUrl) return;
		this.host.settings.sidecarUrl = url;
		await this.host.saveSettings();
		this.reconnect();
	}

	private applyToken(token: string): void {
		this.host.connection.tokens.set(token);
		this.reconnect();
	}

	private reconnect(): void {
		this.generation += 1;
		this.host.connection.reconnect();
	}

	/** The connection line follows the live state while the tab is open; the button checks the status now. */
	private renderConnection(setting: Setting): () => void {
		const { connection } = this.host;
		const show = (): void => {
			setting.setDesc(describeConnection(connection.state).detail);
		};
		show();
		setting.addButton((button) =>
			button.setButtonText("Check connection").onClick(async () => {
				const attempt = ++this.generation;
				let message: string;
				try {
					const body = await connection.client.status();
					message = describeCheck(body, connection.lastEndpoint?.baseUrl ?? null);
				} catch (e) {
					message = e instanceof Error ? e.message : String(e);
				}
				// The URL or token changed (or another check started) while this one was out: its answer is stale.
				if (attempt !== this.generation) return;
				new Notice(message);
				connection.reconnect();
				show();
			}),
		);
		return connection.onChange(show);
	}

	/** Which embedder the sidecar uses and why, from its last status, following the live state like the connection line. */
	private renderEmbedder(setting: Setting): () => void {
		const { connection } = this.host;
		const show = (): void => {
			setting.setDesc(describeEmbedderSetting(connection.state.connected ? connection.state.status : null));
		};
		show();
		return connection.onChange(show);
	}

	private renderTopK(setting: Setting): void {
		const { settings } = this.host;
		setting.addSlider((slider) =>
			slider
				.setLimits(TOP_K_MIN, TOP_K_MAX, 1)
				.setValue(settings.topK)
				.onChange(async (value) => {
					settings.topK = parseTopK(value) ?? settings.topK;
					setting.setDesc(describeSourceCount(settings.topK));
					await this.host.saveSettings();
				}),
		);
	}

}
