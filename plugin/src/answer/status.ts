/** The status bar's words for a connection state: connected or not, index progress, model problems. */

import type { ConnectionState } from "../sidecar/events";

export interface StatusLine {
	text: string;
	/** Longer explanation for the tooltip. */
	detail: string;
	level: "ok" | "busy" | "warn" | "down";
}

export function describeConnection(state: ConnectionState): StatusLine {
	if (!state.connected) {
		const reason = state.error?.message ?? "Not connected yet.";
		const unauthorised = state.error?.status === 401;
		return {
			text: unauthorised ? "Ask Vault: wrong token" : "Ask Vault: disconnected",
			detail: reason,
			level: "down",
		};
	}
	const problems = [state.models?.embed.problem, state.models?.chat.problem].filter(
		(p): p is string => typeof p === "string" && p !== "",
	);
	const parts: string[] = [];
	let level: StatusLine["level"] = "ok";
	if (state.index?.state === "indexing") {
		parts.push(`indexing ${state.index.done}/${state.index.total}`);
		level = "busy";
	} else {
		parts.push("ready");
	}
	if (problems.length > 0) {
		parts.push(...problems);
		level = "warn";
	}
	const vault = state.status?.vault;
	const detailParts = [
		vault ? `${vault.notes} notes, ${vault.chunks} chunks indexed.` : "Connected.",
		state.status?.index.dense === "off" ? "Keyword search only: the embedding model is unavailable." : "",
		...problems,
	].filter((p) => p !== "");
	return { text: `Ask Vault: ${parts.join(" · ")}`, detail: detailParts.join(" "), level };
}
