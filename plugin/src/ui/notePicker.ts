/** The fuzzy note picker of "Why not…?": the vault's Markdown notes, those the search ranked listed first. */

import { type App, FuzzySuggestModal, type TFile } from "obsidian";
import { pickOrder } from "../answer/explain";

export class NotePicker extends FuzzySuggestModal<TFile> {
	constructor(
		app: App,
		/** Paths the turn's search ranked, best first: before typing, the notes a reader most likely means. */
		private readonly ranked: readonly string[],
		private readonly onPick: (file: TFile) => void,
	) {
		super(app);
		this.setPlaceholder("Which note should this answer have used?");
		this.emptyStateText = "No note matches.";
		this.setInstructions([
			{ command: "↑↓", purpose: "to navigate" },
			{ command: "↵", purpose: "to explain" },
			{ command: "esc", purpose: "to dismiss" },
		]);
	}

	getItems(): TFile[] {
		const files = this.app.vault.getMarkdownFiles();
		const byPath = new Map(files.map((f) => [f.path, f]));
		return pickOrder(files.map((f) => f.path), this.ranked).flatMap((path) => byPath.get(path) ?? []);
	}

	getItemText(file: TFile): string {
		return file.path;
	}

	onChooseItem(file: TFile): void {
		this.onPick(file);
	}
}
