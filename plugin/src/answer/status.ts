/** The status bar's words for a connection state: connected or not, index progress, the embedder, model problems. */

import type { ConnectionState } from "../sidecar/events";
import type { Redactions } from "../sidecar/wire";
import { embedderSentences, embedderText } from "./embedder";
import { describeIndexing, meanwhile } from "./progress";

export interface StatusLine {
	text: string;
	/** Longer explanation for the tooltip. */
	detail: string;
	level: "ok" | "busy" | "warn" | "down";
}

export function describeConnection(state: ConnectionState): StatusLine {
	if (!state.connected) {
		const reason = state.error?.message ?? "Not connected yet.";
		return { text: `Ask Vault: ${downText(state)}`, detail: reason, level: "down" };
	}
	// From the last /api/status (null from a sidecar that does not report it); the models come live from the events.
	const embedder = state.status?.embedder ?? null;
	// The embedder's own problem is "keyword only" in the text and its sentence (with the fix) in the tooltip; it
	// stands for the embedding model's entry (for the built-in embedder the very same sentence).
	const ownProblem = (embedder?.problem ?? null) !== null;
	const problems = [ownProblem ? null : state.models?.embed.problem, state.models?.chat.problem].filter(
		(p): p is string => typeof p === "string" && p !== "",
	);
	const parts: string[] = [];
	let level: StatusLine["level"] = "ok";
	let progress: string[] = [];
	if (state.index?.state === "indexing") {
		const line = describeIndexing(state.index, state.status);
		parts.push(line.text);
		progress = line.detail;
		level = "busy";
	} else {
		parts.push("ready");
		progress = meanwhile(state.status);
	}
	// Which embedder, when idle; while indexing the progress has the room (the tooltip names it), unless it is down.
	if (embedder !== null && (level !== "busy" || ownProblem)) parts.push(embedderText(embedder));
	if (problems.length > 0 || ownProblem) {
		parts.push(...problems);
		level = "warn";
	}
	const vault = state.status?.vault;
	const detailParts = [
		vault ? `${vault.notes} notes, ${vault.chunks} chunks indexed.` : "Connected.",
		...progress,
		...(embedder === null ? [] : embedderSentences(embedder)),
		state.status?.index.dense === "off" && !ownProblem ? "Keyword search only: the embedding model is unavailable." : "",
		describeRedactions(state.status?.index.redactions ?? null),
		...problems,
	].filter((p) => p !== "");
	return { text: `Ask Vault: ${parts.join(" · ")}`, detail: detailParts.join(" "), level };
}

/** Why there is no connection, in a few words: the token, the API version (which side to update), or none. */
function downText(state: ConnectionState): string {
	const error = state.error;
	if (error?.status === 401) return "wrong token";
	if (error?.kind === "incompatible") return error.code === "update_plugin" ? "update the plugin" : "update askvault";
	if (error?.code === "certificate_mismatch" || error?.code === "no_fingerprint") return "not the paired sidecar";
	return "disconnected";
}

/**
 * The chat pane's sentence while there is no connection (the sidecar's own words for why: for a remote sidecar,
 * where and when it was last reached); null while connected or before the first attempt has failed.
 */
export function paneNotice(state: ConnectionState): string | null {
	return state.connected || state.error === null ? null : state.error.message;
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
