/** The status bar item: connected or not, index progress, model problems; a click explains and reconnects. */

import { Notice, setTooltip } from "obsidian";
import { describeConnection, type StatusLine } from "../answer/status";
import type { ConnectionState } from "../sidecar/events";

export class StatusBar {
	private line: StatusLine;

	constructor(
		private readonly el: HTMLElement,
		state: ConnectionState,
		private readonly onReconnect: () => void,
	) {
		el.addClass("ask-vault-status", "mod-clickable");
		this.line = describeConnection(state);
		this.update(state);
	}

	update(state: ConnectionState): void {
		this.line = describeConnection(state);
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
