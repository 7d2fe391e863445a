/** The settings tab: where the sidecar is, its token, which embedder it uses, how many sources to use, a remote sidecar, and how to start the sidecar. */

import { type App, Notice, Platform, type Plugin, PluginSettingTab, type Setting, type SettingDefinitionItem } from "obsidian";
import { describeCheck, describeEmbedderSetting } from "../answer/embedder";
import { describeConnection } from "../answer/status";
import { INSTALL_COMMAND, INSTALL_COMMAND_UV } from "../desktop/commandLookup";
import { locateCommand, sidecarLookup } from "../desktop/locate";
import { Debounced } from "../plugin/debounce";
import type { AskVaultHost } from "../plugin/host";
import { DEFAULT_SETTINGS, describeSourceCount, normaliseUrl, parseTopK, TOP_K_MAX, TOP_K_MIN } from "../settings";
import type { Timers } from "../sidecar/events";
import { remoteGroup } from "./remoteSettings";
import { renderItems, type Row, type TabItem } from "./settingDefinitions";

export interface SettingsHost extends AskVaultHost {
	saveSettings(): Promise<void>;
}

const windowTimers: Timers = { setTimeout: (fn, ms) => window.setTimeout(fn, ms), clearTimeout: (id) => window.clearTimeout(id) };

type TextKey = "command" | "dataDir" | "embedModel" | "chatModel";

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
			{ type: "group", heading: "Sidecar process", visible: () => Platform.isDesktopApp, items: this.processRows() },
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

	private processRows(): Row[] {
		const { settings, connection } = this.host;
		let program: Setting | null = null;
		const lookup = () => (program ? void this.showLookup(program) : undefined);
		return [
			{
				name: "Start the sidecar automatically",
				desc: "Run `askvault serve` for this vault when Obsidian starts, and stop it when Obsidian closes.",
				render: (setting) =>
					void setting.addToggle((toggle) =>
						toggle.setValue(settings.autoStart).onChange(async (value) => {
							settings.autoStart = value;
							// Without automatic start a missing program is no problem worth a status bar line.
							if (!value) sidecarLookup.set(null);
							await this.host.saveSettings();
							await connection.restartSidecar();
							lookup();
						}),
					),
			},
			this.textRow("Command", "The `askvault` program: a name on your PATH or a full path.", "command", lookup),
			{
				name: "Sidecar program",
				render: (setting) => {
					program = setting;
					setting.addButton((button) =>
						button.setButtonText("Copy install command").onClick(async () => {
							const copied = await navigator.clipboard.writeText(INSTALL_COMMAND).then(
								() => true,
								() => false,
							);
							new Notice(copied ? `Copied: ${INSTALL_COMMAND}` : `Install the sidecar with: ${INSTALL_COMMAND}`);
						}),
					);
					void this.showLookup(setting);
				},
			},
			this.textRow("Data folder", "Where the sidecar keeps its index (`--data-dir`). Empty for the default per-user folder.", "dataDir"),
			this.textRow(
				"Embedding model",
				"Empty: the embedder this vault's index was built with, at first the built-in one (no Ollama needed to search). `builtin`, or an Ollama embedding model such as nomic-embed-text, rebuilds the vectors with that one.",
				"embedModel",
				undefined,
				"the index's own (built in)",
			),
			this.textRow("Chat model", "The Ollama model that writes answers.", "chatModel"),
			{
				name: "Folders beside the vault",
				desc: "Other folders to search with the vault (a Nextcloud or Drive sync, a docs checkout): one LABEL=/full/path a line. Their hits are marked with the label and open in the system's default app.",
				render: (setting) =>
					void setting.addTextArea((area) =>
						area
							.setPlaceholder("Docs=/home/me/docs")
							.setValue(settings.folders)
							.onChange(async (value) => {
								settings.folders = value;
								await this.host.saveSettings();
							}),
					),
			},
			{
				name: "Index PDFs and canvases",
				desc: "Search the text of the vault's PDFs, page by page (a citation opens the page), and the cards of its canvases. Off: only Markdown notes.",
				render: (setting) =>
					void setting.addToggle((toggle) =>
						toggle.setValue(settings.indexDocuments).onChange(async (value) => {
							settings.indexDocuments = value;
							await this.host.saveSettings();
						}),
					),
			},
			{
				name: "Apply to the running sidecar",
				desc: "The options above take effect when the plugin (re)starts the sidecar. Notes in Obsidian's Excluded files (Files and links) are never indexed.",
				render: (setting) =>
					void setting.addButton((button) =>
						button.setButtonText("Restart the sidecar").onClick(async () => {
							await connection.restartSidecar();
							new Notice(settings.autoStart ? "Restarting the Ask Vault sidecar." : "Turn on automatic start to let Obsidian run the sidecar.");
						}),
					),
			},
		];
	}

	/** Says where the program is, or the exact command that installs it (also what the status bar says, when it starts it). */
	private async showLookup(setting: Setting): Promise<void> {
		const { settings } = this.host;
		setting.setDesc("Looking for the program…");
		const lookup = await locateCommand(settings.command);
		if (settings.autoStart) sidecarLookup.set(lookup);
		const desc = setting.descEl;
		desc.empty();
		const copy = setting.controlEl.querySelector("button");
		if (copy) copy.hidden = lookup.state === "found";
		if (lookup.state === "found") {
			desc.setText(`Found: ${lookup.path}`);
			return;
		}
		desc.appendText(`"${lookup.command}" was not found on your PATH or in ~/.local/bin. Install the sidecar with `);
		desc.createEl("code", { text: INSTALL_COMMAND });
		desc.appendText(" (or ");
		desc.createEl("code", { text: INSTALL_COMMAND_UV });
		desc.appendText("), then restart the sidecar below.");
	}

	/** A text field for a setting; empty means its default (the data folder's default is empty: the per-user folder). */
	private textRow(name: string, desc: string, key: TextKey, changed?: () => void, placeholder?: string): Row {
		const { settings } = this.host;
		return {
			name,
			desc,
			render: (setting) =>
				void setting.addText((text) =>
					text
						.setPlaceholder(placeholder ?? DEFAULT_SETTINGS[key])
						.setValue(settings[key])
						.onChange(async (value) => {
							settings[key] = value.trim() || DEFAULT_SETTINGS[key];
							changed?.();
							await this.host.saveSettings();
						}),
				),
		};
	}
}
