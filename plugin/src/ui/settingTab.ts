/** The settings tab: where the sidecar is, its token, how many sources to use, and how to start the sidecar. */

import { type App, Notice, Platform, type Plugin, PluginSettingTab, Setting } from "obsidian";
import { describeConnection } from "../answer/status";
import { INSTALL_COMMAND, INSTALL_COMMAND_UV } from "../desktop/commandLookup";
import { locateCommand, sidecarLookup } from "../desktop/locate";
import { normaliseUrl, parseExclusions, parseTopK, TOP_K_MAX, TOP_K_MIN } from "../settings";
import type { AskVaultHost } from "../plugin/host";

export interface SettingsHost extends AskVaultHost {
	saveSettings(): Promise<void>;
}

export class AskVaultSettingTab extends PluginSettingTab {
	constructor(
		app: App,
		plugin: Plugin,
		private readonly host: SettingsHost,
	) {
		super(app, plugin);
	}

	display(): void {
		const { containerEl } = this;
		const { settings, connection } = this.host;
		containerEl.empty();

		new Setting(containerEl)
			.setName("Sidecar URL")
			.setDesc("Where `askvault serve` listens. A sidecar found for this vault on this computer is used instead.")
			.addText((text) =>
				text
					.setPlaceholder("http://127.0.0.1:27123")
					.setValue(settings.sidecarUrl)
					.onChange(async (value) => {
						const url = normaliseUrl(value);
						text.inputEl.toggleClass("ask-vault-invalid", url === null);
						if (url === null) return;
						settings.sidecarUrl = url;
						await this.host.saveSettings();
						connection.reconnect();
					}),
			);

		const tokenDesc = connection.tokens.persistent
			? "Printed by `askvault token`. Kept in Obsidian's secret storage, never in the plugin's data file."
			: "Printed by `askvault token`. This Obsidian version has no secret storage, so it is kept in memory until Obsidian restarts.";
		new Setting(containerEl)
			.setName("Token")
			.setDesc(`${tokenDesc} Leave empty when the sidecar runs on this computer: the plugin reads it from the sidecar's data folder.`)
			.addText((text) => {
				text.inputEl.type = "password";
				text.inputEl.autocomplete = "off";
				text
					.setPlaceholder(connection.tokens.get() ? "•••••••• (set)" : "Not set")
					.onChange((value) => {
						connection.tokens.set(value);
						connection.reconnect();
					});
			});

		const status = new Setting(containerEl).setName("Connection").setDesc(describeConnection(connection.state).detail);
		status.addButton((button) =>
			button.setButtonText("Check connection").onClick(async () => {
				try {
					const body = await connection.client.status();
					const problems = [body.models.embed.problem, body.models.chat.problem].filter((p) => p);
					const via = connection.lastEndpoint ? ` at ${connection.lastEndpoint.baseUrl}` : "";
					new Notice(`Connected to Ask Vault ${body.version}${via}: ${body.vault.notes} notes. ${problems.join(" ")}`.trim());
					connection.reconnect();
				} catch (e) {
					new Notice(e instanceof Error ? e.message : String(e));
				}
				status.setDesc(describeConnection(connection.state).detail);
			}),
		);

		new Setting(containerEl)
			.setName("Sources per question")
			.setDesc("How many ranked chunks the sidecar retrieves for each question.")
			.addSlider((slider) =>
				slider
					.setLimits(TOP_K_MIN, TOP_K_MAX, 1)
					.setValue(settings.topK)
					.onChange(async (value) => {
						settings.topK = parseTopK(value) ?? settings.topK;
						await this.host.saveSettings();
					}),
			);

		if (!Platform.isDesktopApp) return;

		new Setting(containerEl).setName("Sidecar process").setHeading();
		new Setting(containerEl)
			.setName("Start the sidecar automatically")
			.setDesc("Run `askvault serve` for this vault when Obsidian starts, and stop it when Obsidian closes.")
			.addToggle((toggle) =>
				toggle.setValue(settings.autoStart).onChange(async (value) => {
					settings.autoStart = value;
					// Without automatic start a missing program is no problem worth a status bar line.
					if (!value) sidecarLookup.set(null);
					await this.host.saveSettings();
					await connection.restartSidecar();
					await this.showLookup(program);
				}),
			);
		this.textSetting("Command", "The `askvault` program: a name on your PATH or a full path.", "askvault", () => settings.command, (v) => {
			settings.command = v || "askvault";
			void this.showLookup(program);
		});
		const program = new Setting(containerEl).setName("Sidecar program").addButton((button) =>
			button.setButtonText("Copy install command").onClick(async () => {
				const copied = await navigator.clipboard.writeText(INSTALL_COMMAND).then(
					() => true,
					() => false,
				);
				new Notice(copied ? `Copied: ${INSTALL_COMMAND}` : `Install the sidecar with: ${INSTALL_COMMAND}`);
			}),
		);
		void this.showLookup(program);
		this.textSetting("Data folder", "Where the sidecar keeps its index (`--data-dir`). Empty for the default per-user folder.", "", () => settings.dataDir, (v) => {
			settings.dataDir = v;
		});
		this.textSetting("Embedding model", "The Ollama model that embeds notes and questions.", "nomic-embed-text", () => settings.embedModel, (v) => {
			settings.embedModel = v || "nomic-embed-text";
		});
		this.textSetting("Chat model", "The Ollama model that writes answers.", "llama3.2:3b", () => settings.chatModel, (v) => {
			settings.chatModel = v || "llama3.2:3b";
		});
		new Setting(containerEl)
			.setName("Excluded folders")
			.setDesc("One folder or pattern per line; the sidecar never indexes them.")
			.addTextArea((area) =>
				area
					.setPlaceholder("Private/")
					.setValue(settings.exclusions.join("\n"))
					.onChange(async (value) => {
						settings.exclusions = parseExclusions(value);
						await this.host.saveSettings();
					}),
			);
		new Setting(containerEl)
			.setName("Apply to the running sidecar")
			.setDesc("The options above take effect when the plugin (re)starts the sidecar.")
			.addButton((button) =>
				button.setButtonText("Restart the sidecar").onClick(async () => {
					await connection.restartSidecar();
					new Notice(settings.autoStart ? "Restarting the Ask Vault sidecar." : "Turn on automatic start to let Obsidian run the sidecar.");
				}),
			);
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

	private textSetting(name: string, desc: string, placeholder: string, get: () => string, set: (value: string) => void): void {
		new Setting(this.containerEl)
			.setName(name)
			.setDesc(desc)
			.addText((text) =>
				text
					.setPlaceholder(placeholder)
					.setValue(get())
					.onChange(async (value) => {
						set(value.trim());
						await this.host.saveSettings();
					}),
			);
	}
}
