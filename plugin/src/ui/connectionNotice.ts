/** The chat pane's line about a lost connection, where the status bar is no help: on a phone (it has none) or with a remote sidecar. */

import { Platform } from "obsidian";
import { paneNotice } from "../answer/status";
import type { AskVaultHost } from "../plugin/host";
import type { ConnectionState } from "../sidecar/events";

/** Shows the connection's one sentence in `el` while it is down; returns the cleanup. */
export function followConnection(el: HTMLElement, host: AskVaultHost): () => void {
	el.addClass("ask-vault-connection");
	el.setAttr("role", "status");
	const show = (state: ConnectionState): void => {
		const wanted = Platform.isMobile || host.connection.remote.current !== null;
		const text = wanted ? paneNotice(state) : null;
		el.setText(text ?? "");
		el.toggle(text !== null);
	};
	show(host.connection.state);
	return host.connection.onChange(show);
}
