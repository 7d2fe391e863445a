/** The commands (stable ids, no default hotkeys): open chat, ask, ask about note or selection, search, related notes, reindex, connect to a remote sidecar. */

import { Notice, type Plugin, type TFile } from "obsidian";
import { aboutNote, aboutSelection, type NoteRef } from "../answer/question";
import type { PairingFields } from "../sidecar/pairing";
import type { AskInput, AskVaultHost } from "./host";

/** The modals commands open, passed in (src/ui/modals.ts) so this module stays free of views. */
export interface CommandModals {
	/** Prompts for a question (under `context`, such as `About "Kodi"`, when given) and hands it over. */
	askQuestion(context: string | null, onQuestion: (question: string) => void): void;
	/** Hybrid search as you type; choosing a result opens it. */
	searchVault(): void;
	/** Pairs with a remote sidecar (the fields of a pairing link when one was opened). */
	connectRemote(prefill: PairingFields | null): void;
}

export interface CommandHost extends AskVaultHost {
	openChat(): Promise<unknown>;
	openRelated(): Promise<unknown>;
	askInChat(input: AskInput): Promise<void>;
}

function noteRef(file: TFile): NoteRef {
	return { path: file.path, title: file.basename };
}

export function registerCommands(plugin: Plugin, host: CommandHost, modals: CommandModals): void {
	const { app } = plugin;

	plugin.addCommand({
		id: "open-chat",
		name: "Open chat",
		callback: () => void host.openChat(),
	});

	plugin.addCommand({
		id: "ask",
		name: "Ask a question",
		callback: () => modals.askQuestion(null, (question) => void host.askInChat({ question })),
	});

	plugin.addCommand({
		id: "ask-about-note",
		name: "Ask about current note",
		checkCallback: (checking) => {
			const file = app.workspace.getActiveFile();
			if (!file || file.extension !== "md") return false;
			if (!checking) {
				const note = noteRef(file);
				const context = `About "${note.title}"`;
				modals.askQuestion(context, (question) => {
					const scoped = aboutNote(question, note);
					void host.askInChat({ question, text: scoped.question, context: scoped.context, filters: scoped.filters });
				});
			}
			return true;
		},
	});

	plugin.addCommand({
		id: "ask-about-selection",
		name: "Ask about selection",
		editorCheckCallback: (checking, editor, ctx) => {
			const selection = editor.getSelection();
			if (selection.trim() === "") return false;
			if (!checking) {
				const file = ctx.file;
				const note = file ? noteRef(file) : null;
				const label = note ? `About a selection in "${note.title}"` : "About a selection";
				modals.askQuestion(label, (question) => {
					const scoped = aboutSelection(question, selection, note);
					void host.askInChat({ question, text: scoped.question, context: scoped.context });
				});
			}
			return true;
		},
	});

	plugin.addCommand({
		id: "search",
		name: "Search vault",
		callback: () => modals.searchVault(),
	});

	plugin.addCommand({
		id: "open-related",
		name: "Open related notes",
		callback: () => void host.openRelated(),
	});

	plugin.addCommand({
		id: "reindex",
		name: "Reindex vault",
		callback: async () => {
			try {
				const outcome = await host.connection.client.reindex();
				new Notice(outcome === "accepted" ? "Ask Vault: reindexing started." : "Ask Vault is already indexing.");
			} catch (e) {
				new Notice(`Reindex failed: ${e instanceof Error ? e.message : String(e)}`);
			}
		},
	});

	plugin.addCommand({
		id: "connect-remote",
		name: "Connect to a remote sidecar",
		callback: () => modals.connectRemote(null),
	});
}
