/** The status bar's words for a connection state: connected or not, index progress, model problems. */

import type { ConnectionState } from "../sidecar/events";
import type { Redactions } from "../sidecar/wire";

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
		describeRedactions(state.status?.index.redactions ?? null),
		...problems,
	].filter((p) => p !== "");
	return { text: `Ask Vault: ${parts.join(" · ")}`, detail: detailParts.join(" "), level };
}

/** "Secrets redacted from the index: 3 (password 2, aws-access-key 1)." — counts by kind, largest first; "" when not reported. */
export function describeRedactions(redactions: Redactions | null): string {
	if (redactions === null) return "";
	if (redactions.total <= 0) return "Secrets redacted from the index: none.";
	const kinds = Object.entries(redactions.by_kind)
		.filter(([, n]) => n > 0)
		.sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
		.map(([kind, n]) => `${kind} ${n}`);
	return `Secrets redacted from the index: ${redactions.total}${kinds.length > 0 ? ` (${kinds.join(", ")})` : ""}.`;
}
