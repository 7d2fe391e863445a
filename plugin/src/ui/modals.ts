/** The modals the commands open: a question prompt, the vault search and pairing with a remote sidecar (commands.ts only knows their interface). */

import type { App } from "obsidian";
import type { CommandModals } from "../plugin/commands";
import { type AskVaultHost, folderSources, localCopyOnly } from "../plugin/host";
import { AskModal } from "./askModal";
import { ConnectRemoteModal } from "./remoteModal";
import { SearchModal } from "./searchModal";

export function commandModals(app: App, host: AskVaultHost): CommandModals {
	return {
		askQuestion: (context, onQuestion) => new AskModal(app, context, onQuestion).open(),
		searchVault: () =>
			new SearchModal(app, host.connection.client, host.settings.topK, () => folderSources(host), () => localCopyOnly(host)).open(),
		connectRemote: (prefill) => new ConnectRemoteModal(app, host.connection, prefill).open(),
	};
}
