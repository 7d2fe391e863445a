/** The settings tab's "Sidecar process" rows (desktop only): whether and how Obsidian starts `askvault serve`, and with which options. */

import { Notice, Platform, type Setting } from "obsidian";
import { INSTALL_COMMAND, INSTALL_COMMAND_UV } from "../desktop/commandLookup";
import { locateCommand, sidecarLookup } from "../desktop/locate";
import type { SettingsHost } from "../plugin/host";
import { DEFAULT_SETTINGS } from "../settings";
import type { Row, RowGroup } from "./settingDefinitions";

type TextKey = "command" | "dataDir" | "embedModel" | "chatModel";

export function processGroup(host: SettingsHost): RowGroup {
	return { type: "group", heading: "Sidecar process", visible: () => Platform.isDesktopApp, items: processRows(host) };
}

function processRows(host: SettingsHost): Row[] {
	const { settings, connection } = host;
	let program: Setting | null = null;
	const lookup = () => (program ? void showLookup(host, program) : undefined);
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
						await host.saveSettings();
						await connection.restartSidecar();
						lookup();
					}),
				),
		},
		textRow(host, "Command", "The `askvault` program: a name on your PATH or a full path.", "command", lookup),
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
				void showLookup(host, setting);
			},
		},
		textRow(host, "Data folder", "Where the sidecar keeps its index (`--data-dir`). Empty for the default per-user folder.", "dataDir"),
		textRow(host, 
			"Embedding model",
			"Empty: the embedder this vault's index was built with, at first the built-in one (no Ollama needed to search). `builtin`, or an Ollama embedding model such as nomic-embed-text, rebuilds the vectors with that one.",
			"embedModel",
			undefined,
			"the index's own (built in)",
		),
		textRow(host, "Chat model", "The Ollama model that writes answers.", "chatModel"),
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
							await host.saveSettings();
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
						await host.saveSettings();
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
async function showLookup(host: SettingsHost, setting: Setting): Promise<void> {
	const { settings } = host;
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
function textRow(host: SettingsHost, name: string, desc: string, key: TextKey, changed?: () => void, placeholder?: string): Row {
	const { settings } = host;
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
						await host.saveSettings();
					}),
			),
	};
}
