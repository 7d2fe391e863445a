/** Opens a note where a chunk lives: at its heading when the note still has it, else at the chunk's first line. */

import { type App, Keymap } from "obsidian";
import { type Located, openTarget } from "../answer/citations";

/** Ctrl/Cmd-click (or Ctrl/Cmd-Enter) opens it in a new tab, as everywhere in Obsidian. */
export function openLocated(app: App, loc: Located, evt: MouseEvent | KeyboardEvent): void {
	const file = app.metadataCache.getFirstLinkpathDest(loc.path, "");
	const headings = file ? (app.metadataCache.getFileCache(file)?.headings?.map((h) => h.heading) ?? null) : null;
	const target = openTarget(loc, headings);
	const state = target.line === null ? undefined : { eState: { line: target.line } };
	void app.workspace.openLinkText(target.linktext, "", Keymap.isModEvent(evt), state);
}
