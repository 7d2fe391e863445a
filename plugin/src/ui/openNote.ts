/** Opens a note where a chunk lives: at its heading when the note still has it, else at the chunk's first line; a
 * file in a folder beside the vault with the system's default app (desktop), or says where it is (mobile). */

import { type App, Keymap, Notice, Platform } from "obsidian";
import { type Located, openTarget } from "../answer/citations";
import { type FolderSource, outsideFile, outsideNotice } from "../answer/sourceFolders";
import { openWithDefaultApp } from "../desktop/openFile";

/** Ctrl/Cmd-click (or Ctrl/Cmd-Enter) opens it in a new tab, as everywhere in Obsidian. */
export function openLocated(app: App, loc: Located, evt: MouseEvent | KeyboardEvent, sources: readonly FolderSource[] = []): void {
	const outside = outsideFile(loc.path, sources);
	if (outside !== null) {
		if (!Platform.isDesktopApp) {
			new Notice(outsideNotice(outside));
			return;
		}
		void openWithDefaultApp(outside.file).then(
			(problem) => {
				if (problem !== "") new Notice(`Could not open ${outside.file}: ${problem}`);
			},
			() => new Notice(outsideNotice(outside)),
		);
		return;
	}
	const file = app.metadataCache.getFirstLinkpathDest(loc.path, "");
	const headings = file ? (app.metadataCache.getFileCache(file)?.headings?.map((h) => h.heading) ?? null) : null;
	const target = openTarget(loc, headings);
	const state = target.line === null ? undefined : { eState: { line: target.line } };
	void app.workspace.openLinkText(target.linktext, "", Keymap.isModEvent(evt), state);
}
