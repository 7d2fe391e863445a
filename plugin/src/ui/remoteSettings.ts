/** The settings tab's "Remote sidecar" rows: which sidecar this device is paired with, connect and disconnect. */

import { type App, Notice, type Setting } from "obsidian";
import type { SidecarConnection } from "../plugin/connection";
import { shortFingerprint } from "../sidecar/pairing";
import { whenReached } from "../sidecar/remote";
import { ConnectRemoteModal } from "./remoteModal";
import type { RowGroup } from "./settingDefinitions";

/** One sentence for the paired sidecar (or its absence), as the row shows it. */
export function describeRemote(connection: SidecarConnection, now: number = Date.now()): string {
	const { remote } = connection;
	const paired = remote.current;
	if (paired !== null) {
		return (
			`Connected to ${paired.address} as "${paired.device}" (certificate SHA-256 ${shortFingerprint(paired.fingerprint)}; ${whenReached(paired.lastReached, now)}). ` +
			"While connected, the sidecar URL, token and sidecar process settings are not used."
		);
	}
	const saved = remote.saved;
	if (saved !== null) {
		return `Paired with ${saved.address} as "${saved.device}", but this Obsidian version keeps the device token only until it restarts, and it is gone: connect again.`;
	}
	const kept = remote.persistent ? "" : " This Obsidian version keeps the pairing only until it restarts.";
	return `Ask a sidecar on another computer (from a phone, or a second desktop): run \`askvault pair\` there and open its link here.${kept}`;
}

export function remoteGroup(app: App, connection: SidecarConnection): RowGroup {
	return {
		type: "group",
		heading: "Remote sidecar",
		visible: () => true,
		items: [{ name: "Remote sidecar", render: (setting) => renderRemote(app, connection, setting) }],
	};
}

function renderRemote(app: App, connection: SidecarConnection, setting: Setting): () => void {
	let connect: HTMLButtonElement | null = null;
	let disconnect: HTMLButtonElement | null = null;
	setting.addButton((button) => {
		connect = button.buttonEl;
		button.setButtonText("Connect to a remote sidecar").onClick(() => new ConnectRemoteModal(app, connection).open());
	});
	setting.addButton((button) => {
		disconnect = button.buttonEl;
		button.buttonEl.addClass("mod-warning");
		button.setButtonText("Disconnect").onClick(async () => {
			const saved = connection.remote.saved;
			await connection.disconnectRemote();
			if (saved !== null) {
				new Notice(
					`Ask Vault: disconnected from ${saved.address}. The sidecar still lists "${saved.device}" until you run \`askvault revoke\` there.`,
				);
			}
		});
	});
	const show = (): void => {
		setting.setDesc(describeRemote(connection));
		const paired = connection.remote.saved !== null;
		if (connect) connect.setText(paired ? "Pair again" : "Connect to a remote sidecar");
		if (disconnect) disconnect.toggle(paired);
	};
	show();
	const offRemote = connection.remote.onChange(show);
	// The connection line elsewhere follows the live state; this one follows it too for "last reached".
	const offState = connection.onChange(show);
	return () => {
		offRemote();
		offState();
	};
}
