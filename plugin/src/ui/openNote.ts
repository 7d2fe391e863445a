/** Opens a note where a chunk lives: at its heading when the note still has it, else at the chunk's first line; a
 * file in a folder beside the vault with the system's default app (desktop), or says where it is (mobile); a note
 * missing from this device's copy of the vault is said to be missing. */

import { type App, Keymap, Notice, Platform } from "obsidian";
import { type Located, openTarget } from "../answer/citations";
import { type FolderSource, outsideFile, outsideNotice } from "../answer/sourceFolders";
import { openWithDefaultApp } from "../desktop/openFile";

/** What a click on a note this device's copy of the vault lacks says (the sidecar indexed another copy). */
export function notInThisCopy(path: string): string {
	return `"${path}" is not in this device's copy of the vault: the sidecar read it on its own computer, and it has not synced here (or was moved since).`;
}

/**
 * Ctrl/Cmd-click (or Ctrl/Cmd-Enter) opens it in a new tab, as everywhere in Obsidian. With `localCopy` (a remote
 * sidecar, or a phone) the note must exist here: Obsidian would otherwise create an empty note at a missing path.
 */
export function openLocated(
	app: App,
	loc: Located,
	evt: MouseEvent | KeyboardEvent,
	sources: readonly FolderSource[] = [],
	localCopy = false,
): void {
	const outside = outsideFile(loc.path, sources);
	if (outside !== null) {
		// The file is on the sidecar's computer: this one can open it only when that is this computer.
		if (!Platform.isDesktopApp || localCopy) {
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
	if (localCopy && app.vault.getAbstractFileByPath(loc.path) === null) {
		new Notice(notInThisCopy(loc.path));
		return;
	}
	const file = app.metadataCache.getFirstLinkpathDest(loc.path, "");
	const headings = file ? (app.metadataCache.getFileCache(file)?.headings?.map((h) => h.heading) ?? null) : null;
	const target = openTarget(loc, headings);
	const state = target.line === null ? undefined : { eState: { line: target.line } };
	void app.workspace.openLinkText(target.linktext, "", Keymap.isModEvent(evt), state);
}
