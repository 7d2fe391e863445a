/** The status bar item: connected or not, index progress, model problems, a missing sidecar program; a click explains and reconnects. */

import { Notice, setTooltip } from "obsidian";
import { describeConnection, type StatusLine } from "../answer/status";
import { describeLookup, type Lookup, type LookupStore } from "../desktop/commandLookup";
import { sidecarLookup } from "../desktop/locate";
import type { ConnectionState } from "../sidecar/events";

/** While disconnected because the program to start is missing, say so and how to install it. */
export function statusLine(state: ConnectionState, lookup: Lookup | null): StatusLine {
	if (state.connected || lookup?.state !== "missing") return describeConnection(state);
	return { text: "Ask Vault: sidecar not installed", detail: describeLookup(lookup), level: "down" };
}

export class StatusBar {
	private line: StatusLine;
	private state: ConnectionState;

	constructor(
		private readonly el: HTMLElement,
		state: ConnectionState,
		private readonly onReconnect: () => void,
		private readonly lookups: LookupStore = sidecarLookup,
	) {
		el.addClass("ask-vault-status", "mod-clickable");
		this.state = state;
		this.line = statusLine(state, lookups.current);
		this.update(state);
		// The store lives in this plugin's module, so the listener goes away with the plugin.
		lookups.onChange(() => this.update(this.state));
	}

	update(state: ConnectionState): void {
		this.state = state;
		this.line = statusLine(state, this.lookups.current);
		this.el.setText(this.line.text);
		this.el.setAttr("data-level", this.line.level);
		setTooltip(this.el, this.line.detail, { placement: "top" });
	}

	/** Says what is wrong (or right) in a notice; reconnects at once when disconnected. */
	explain(): void {
		new Notice(this.line.detail);
		if (this.line.level === "down") this.onReconnect();
	}
}
