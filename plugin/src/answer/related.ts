/** "Related notes" for the active note: the view's states and wording, and the debounced feed that fetches them. */

import { isAbort, SidecarError } from "../sidecar/client";
import type { RelatedBody, RelatedResult } from "../sidecar/wire";
import { headingTrail, type Located } from "./citations";
import { noiseBadge, type NoiseBadge } from "./noise";
import { formatSignal } from "./relevance";

/** Switching notes quickly (arrow keys in the file list, tab cycling) asks once, for the note that stayed. */
export const RELATED_DEBOUNCE_MS = 300;

export type RelatedState =
	| { kind: "no-note" }
	| { kind: "loading"; path: string }
	| { kind: "ready"; path: string; body: RelatedBody }
	/** The sidecar could not be reached: its message says where it was looked for and how to start it. */
	| { kind: "unreachable"; path: string; message: string }
	/** The sidecar answered with an error (e.g. 404 for a note it has not indexed): shown as written. */
	| { kind: "error"; path: string; message: string; code: string };

export const NO_NOTE_TEXT = "Open a note to see the notes related to it.";
export const LOADING_TEXT = "Finding related notes…";
export const EMPTY_TEXT = "No related notes.";

/** The one line a state shows instead of (or, when ready, above) the list. */
export function relatedMessage(state: RelatedState): string {
	switch (state.kind) {
		case "no-note":
			return NO_NOTE_TEXT;
		case "loading":
			return LOADING_TEXT;
		case "ready":
			return state.body.results.length === 0 ? EMPTY_TEXT : methodText(state.body.method);
		case "unreachable":
		case "error":
			return state.message;
	}
}

export function methodText(method: RelatedBody["method"]): string {
	return method === "dense" ? "Closest in meaning" : "Sharing the most distinctive words (semantic search is not available)";
}

/** What an entry's number is, for its tooltip. */
export function scoreLabel(method: RelatedBody["method"]): string {
	return method === "dense" ? "Similarity" : "Keyword score";
}

/** Dense scores are cosines, keyword scores BM25 scaled to 0..1: three decimals tell neighbours apart in both. */
export function formatRelatedScore(score: number): string {
	return formatSignal(score);
}

/** Where a result's passage lives, for the hover preview and the click (the candidate note, at its closest chunk). */
export function passageOf(result: RelatedResult): Located {
	return {
		path: result.path,
		heading_path: result.passage.heading_path,
		start_line: result.passage.start_line,
		page: result.passage.page,
	};
}

/** `Jellyfin.md › Jellyfin › Setup`: the closest passage's trail. */
export function passageTrail(result: RelatedResult): string {
	return headingTrail(passageOf(result));
}

/** The passage's template, link or query share, when it has one (no ranking clause: related notes are not a search). */
export function passageNoise(result: RelatedResult): NoiseBadge | null {
	return noiseBadge(result.passage.noise, false);
}

/** The state a failed request leaves; null when it was aborted (a newer note took over). */
export function failedState(path: string, e: unknown): RelatedState | null {
	if (isAbort(e)) return null;
	if (e instanceof SidecarError) {
		if (e.kind === "network") return { kind: "unreachable", path, message: e.message };
		return { kind: "error", path, message: e.message, code: e.code };
	}
	return { kind: "error", path, message: e instanceof Error ? e.message : String(e), code: "internal" };
}

export interface RelatedDeps {
	fetch(path: string, signal: AbortSignal): Promise<RelatedBody>;
	setTimeout(fn: () => void, ms: number): number;
	clearTimeout(id: number): void;
	onState(state: RelatedState): void;
	delayMs?: number;
}

/**
 * Follows the active note: each change shows "loading" at once and asks the sidecar after a quiet spell; a newer
 * note aborts the request in flight, and any answer for a note that is no longer current is dropped.
 */
export class RelatedFeed {
	private current: RelatedState = { kind: "no-note" };
	private timer: number | null = null;
	private controller: AbortController | null = null;
	private seq = 0;

	constructor(private readonly deps: RelatedDeps) {}

	get state(): RelatedState {
		return this.current;
	}

	/** The note whose related notes are shown or coming (null: none). */
	get path(): string | null {
		return this.current.kind === "no-note" ? null : this.current.path;
	}

	/** The active note is now `path` (null: none, or not a Markdown note). The same note again asks only after a failure. */
	setNote(path: string | null): void {
		if (path === this.path && !this.failed()) return;
		this.cancel();
		if (path === null) {
			this.set({ kind: "no-note" });
			return;
		}
		this.schedule(path);
	}

	/** Asks again for the current note (after an index run, or once the sidecar is back). */
	refresh(): void {
		const path = this.path;
		if (path === null) return;
		this.cancel();
		this.schedule(path);
	}

	dispose(): void {
		this.cancel();
		this.seq += 1;
	}

	private failed(): boolean {
		return this.current.kind === "unreachable" || this.current.kind === "error";
	}

	private schedule(path: string): void {
		const seq = ++this.seq;
		this.set({ kind: "loading", path });
		this.timer = this.deps.setTimeout(() => {
			this.timer = null;
			void this.load(path, seq);
		}, this.deps.delayMs ?? RELATED_DEBOUNCE_MS);
	}

	private async load(path: string, seq: number): Promise<void> {
		const controller = new AbortController();
		this.controller = controller;
		let next: RelatedState | null;
		try {
			next = { kind: "ready", path, body: await this.deps.fetch(path, controller.signal) };
		} catch (e) {
			next = failedState(path, e);
		} finally {
			if (this.controller === controller) this.controller = null;
		}
		if (seq !== this.seq || next === null) return;
		this.set(next);
	}

	private cancel(): void {
		if (this.timer !== null) this.deps.clearTimeout(this.timer);
		this.timer = null;
		this.controller?.abort();
		this.controller = null;
	}

	private set(state: RelatedState): void {
		this.current = state;
		this.deps.onState(state);
	}
}
