/** Turns "ask about this note" and "ask about this selection" into a question text and search filters. */

import type { Filters } from "../sidecar/wire";

export interface NoteRef {
	/** Vault-relative path, e.g. `Homelab/Kodi.md`. */
	path: string;
	/** The note's name without extension. */
	title: string;
}

export interface Scoped {
	question: string;
	filters?: Filters;
	/** A short label for the conversation, e.g. `About "Kodi"`. */
	context: string;
}

/** Selections longer than this are cut: the sidecar caps bodies at 256 KiB and the prompt budget is far smaller. */
export const MAX_SELECTION_CHARS = 4000;

export function folderOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash === -1 ? "" : path.slice(0, slash);
}

/**
 * "Ask about current note": search only the note's folder (the whole vault for a note at the root) and name
 * the note in the question, so both keyword and dense search lean towards it while its neighbours can still
 * be cited.
 */
export function aboutNote(question: string, note: NoteRef): Scoped {
	const folder = folderOf(note.path);
	const scoped: Scoped = {
		question: `About the note "${note.title}": ${question.trim()}`,
		context: `About "${note.title}"`,
	};
	if (folder !== "") scoped.filters = { folder };
	return scoped;
}

/**
 * "Ask about selection": the selected passage is quoted into the question (so retrieval searches for what it
 * talks about, and the model sees it), over the whole vault.
 */
export function aboutSelection(question: string, selection: string, note: NoteRef | null): Scoped {
	let passage = selection.trim();
	if (passage.length > MAX_SELECTION_CHARS) passage = `${passage.slice(0, MAX_SELECTION_CHARS)}…`;
	const quoted = passage
		.split("\n")
		.map((line) => `> ${line}`)
		.join("\n");
	const from = note ? ` from "${note.title}"` : "";
	return {
		question: `${question.trim()}\n\nAbout this passage${from}:\n${quoted}`,
		context: note ? `About a selection in "${note.title}"` : "About a selection",
	};
}
