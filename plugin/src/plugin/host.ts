/** What views, modals and commands need from the plugin, so they never import main.ts. */

import { Platform } from "obsidian";
import type { FolderSource } from "../answer/sourceFolders";
import type { Filters } from "../sidecar/wire";
import type { AskVaultSettings } from "../settings";
import type { SidecarConnection } from "./connection";

export interface AskInput {
	/** What the user typed (shown in the conversation). */
	question: string;
	/** What is sent to the sidecar; defaults to `question`. */
	text?: string;
	/** A label such as `About "Kodi"`, shown above the question. */
	context?: string;
	filters?: Filters;
}

export interface AskVaultHost {
	readonly settings: AskVaultSettings;
	readonly connection: SidecarConnection;
}

/** What the settings tab needs besides: saving the settings it changes. */
export interface SettingsHost extends AskVaultHost {
	saveSettings(): Promise<void>;
}

/** The folders beside the vault the sidecar last reported (`vault.sources` of its status); none before it did. */
export function folderSources(host: AskVaultHost): readonly FolderSource[] {
	return host.connection.state.status?.vault.sources ?? [];
}

/**
 * True when the sidecar indexed another copy of the vault (a paired remote sidecar, or any on a phone): a cited note
 * opens only from this device's copy, which may lack it (not synced yet), rather than being created empty.
 */
export function localCopyOnly(host: AskVaultHost): boolean {
	return Platform.isMobileApp || host.connection.remote.current !== null;
}
