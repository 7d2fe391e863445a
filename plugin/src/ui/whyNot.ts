/** "Why not…?" for one turn: pick a note, ask the sidecar to explain it against the turn's search, show the answer. */

import type { App } from "obsidian";
import { explainRequest, rankedPaths } from "../answer/explain";
import type { Turn } from "../answer/state";
import { isAbort, SidecarError, type SidecarClient } from "../sidecar/client";
import { NotePicker } from "./notePicker";
import type { TurnView } from "./turnView";

export class WhyNot {
	private seq = 0;
	private readonly running = new Map<number, AbortController>();

	constructor(
		private readonly app: App,
		private readonly client: () => SidecarClient,
	) {}

	/** Opens the note picker for the turn `view` shows; the explanation goes into its inspector. */
	pick(view: TurnView): void {
		const turn = view.turn;
		new NotePicker(this.app, rankedPaths(turn), (file) => void this.explain(turn, view, file.path)).open();
	}

	/** Explains `note` for `turn` (a newer pick on the same turn aborts this one). */
	async explain(turn: Turn, view: TurnView, note: string): Promise<void> {
		const req = explainRequest(turn, note);
		if (req === null) return;
		this.running.get(turn.id)?.abort();
		const controller = new AbortController();
		this.running.set(turn.id, controller);
		const seq = ++this.seq;
		view.explain({ type: "start", note, seq });
		try {
			const body = await this.client().explain(req.question, req.note, req.k, req.filters, controller.signal);
			view.explain({ type: "result", seq, body });
		} catch (e) {
			if (isAbort(e)) return;
			const code = e instanceof SidecarError ? e.code : "internal";
			view.explain({ type: "failed", seq, code, message: e instanceof Error ? e.message : String(e) });
		} finally {
			if (this.running.get(turn.id) === controller) this.running.delete(turn.id);
		}
	}

	dispose(): void {
		for (const controller of this.running.values()) controller.abort();
		this.running.clear();
	}
}
