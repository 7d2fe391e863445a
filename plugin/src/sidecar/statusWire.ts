/** Wire types of what the sidecar says about itself: the `GET /api/status` body and the `GET /api/events` stream that repeats it. */

import { arr, bool, type Infer, literal, nullable, num, obj, parse, record, str, typeOf, withDefault } from "./schema";

const modelStatus = obj({ name: str, ok: bool, problem: nullable(str) });
const modelsStatus = obj({ embed: modelStatus, chat: modelStatus });

const redactionCounts = record(num);
const redactions = obj({
	total: num,
	by_kind: withDefault(redactionCounts, {}),
	notes: withDefault(arr(obj({ path: str, kinds: redactionCounts })), []),
});
export type Redactions = Infer<typeof redactions>;

/** The current phase of an index run: items (notes, or chunks when embedding) per second and seconds left. */
const indexProgress = obj({
	// Plain text, not a closed list: a phase a newer sidecar adds must not make the whole status unreadable.
	phase: str,
	done: num,
	total: num,
	rate_per_s: withDefault(nullable(num), null),
	eta_s: withDefault(nullable(num), null),
});
export type IndexRunProgress = Infer<typeof indexProgress>;

/** Which embedder dense search uses and why that one (docs/api.md); absent from sidecars older than the built-in embedder. */
const embedderStatus = obj({
	// Plain text, not closed lists: a backend or a reason a newer sidecar adds must not make the whole status unreadable.
	/** "builtin" or "ollama". */
	backend: str,
	model: str,
	/** How the sidecar names it: "built-in all-MiniLM-L6-v2, 384-d", "Ollama: nomic-embed-text". */
	label: str,
	/** "configured" (a setting), "index" (the one the index was built with) or "default" (the built-in one). */
	source: str,
	state: literal("ready", "building", "off"),
	/** One sentence with the fix while the embedder is unavailable (dense search off), else null. */
	problem: withDefault(nullable(str), null),
	/** The label of the embedder the index was built with, while its vectors are rebuilt with this one. */
	replaces: withDefault(nullable(str), null),
});
export type EmbedderStatus = Infer<typeof embedderStatus>;

export const statusBody = obj({
	api_version: num,
	version: str,
	capabilities: arr(str),
	vault: obj({
		name: str,
		notes: num,
		chunks: num,
		/** Folders beside the vault (`--source LABEL=PATH`): their files are named `LABEL:path`. */
		sources: withDefault(arr(obj({ label: str, path: str, notes: num })), []),
	}),
	index: obj({
		state: literal("idle", "indexing"),
		done: num,
		total: num,
		last_run: nullable(
			obj({
				finished_at: str,
				indexed: num,
				unchanged: num,
				skipped: num,
				failed: num,
				seconds: num,
			}),
		),
		failures: withDefault(arr(obj({ path: str, reason: str })), []),
		dense: literal("ready", "building", "off"),
		/** Null when idle, and from a sidecar that does not report it (all three fields are additive within version 1). */
		progress: withDefault(nullable(indexProgress), null),
		/** Share of chunks dense search answers from (0–1); null from a sidecar that does not report it. */
		dense_coverage: withDefault(nullable(num), null),
		dense_graph: withDefault(literal("none", "building", "ready"), "none"),
		/** Secrets redacted in the current index; null from a sidecar that does not report them. */
		redactions: nullable(redactions),
	}),
	models: modelsStatus,
	/** Null from a sidecar that does not report it. */
	embedder: withDefault(nullable(embedderStatus), null),
	store: str,
});
export type StatusBody = Infer<typeof statusBody>;
export type ModelsStatus = Infer<typeof modelsStatus>;

const statusServerEvent = obj({ type: literal("status"), status: statusBody });
const indexServerEvent = obj({ type: literal("index"), state: literal("idle", "indexing"), done: num, total: num });
const modelsServerEvent = obj({ type: literal("models"), models: modelsStatus });
const heartbeatServerEvent = obj({ type: literal("heartbeat") });
export type ServerEvent =
	| Infer<typeof statusServerEvent>
	| Infer<typeof indexServerEvent>
	| Infer<typeof modelsServerEvent>
	| Infer<typeof heartbeatServerEvent>;

/** Checks one line of the /api/events stream; null for an event type this version does not know (skipped). */
export function parseServerEvent(value: unknown): ServerEvent | null {
	switch (typeOf(value)) {
		case "status":
			return parse(statusServerEvent, value);
		case "index":
			return parse(indexServerEvent, value);
		case "models":
			return parse(modelsServerEvent, value);
		case "heartbeat":
			return parse(heartbeatServerEvent, value);
		default:
			return null;
	}
}
