/** The modals the commands open: a question prompt and the vault search (commands.ts only knows their interface). */

import type { App } from "obsidian";
import type { CommandModals } from "../plugin/commands";
import { type AskVaultHost, folderSources } from "../plugin/host";
import { AskModal } from "./askModal";
import { SearchModal } from "./searchModal";

export function commandModals(app: App, host: AskVaultHost): CommandModals {
	return {
		askQuestion: (context, onQuestion) => new AskModal(app, context, onQuestion).open(),
		searchVault: () => new SearchModal(app, host.connection.client, host.settings.topK, () => folderSources(host)).open(),
	};
}
