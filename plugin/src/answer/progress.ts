/** The status bar's words for an index run in progress: the phase, how far it is, and about how long is left. */

import type { IndexProgress } from "../sidecar/events";
import type { IndexRunProgress, StatusBody } from "../sidecar/wire";

/** What each phase of a run is called in the status bar, and what its items are. */
const PHASES: Record<string, { verb: string; items: string }> = {
	scan: { verb: "scanning", items: "files" },
	notes: { verb: "indexing", items: "notes" },
	keyword: { verb: "indexing keywords", items: "notes" },
	embed: { verb: "embedding", items: "chunks" },
};
const OTHER_PHASE = { verb: "indexing", items: "items" };

/** "less than a minute left", "about 3 min left", "about 2 h 52 min left"; "" when the sidecar has no estimate yet. */
export function formatEta(seconds: number | null): string {
	if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return "";
	if (seconds < 60) return "less than a minute left";
	const minutes = Math.round(seconds / 60);
	if (minutes < 60) return `about ${minutes} min left`;
	const hours = Math.floor(minutes / 60);
	const rest = minutes % 60;
	return rest === 0 ? `about ${hours} h left` : `about ${hours} h ${rest} min left`;
}

/** Done out of total as a whole percentage, never 100 before the phase is over. */
export function percent(done: number, total: number): number | null {
	if (!(total > 0)) return null;
	const share = Math.floor((100 * Math.min(done, total)) / total);
	return done < total ? Math.min(share, 99) : 100;
}

export interface IndexingLine {
	/** After "Ask Vault: ", e.g. "indexing 42% · about 3 min left". */
	text: string;
	/** Sentences for the tooltip. */
	detail: string[];
}

/**
 * The line while the sidecar indexes. `index` comes from the event stream (fresh, counts only); `status` from
 * the last /api/status (polled while indexing: the phase, rate and time left). The stream's counts are used when
 * they are about the same phase as the status (the same total), so the percentage moves between polls.
 */
export function describeIndexing(index: IndexProgress, status: StatusBody | null): IndexingLine {
	const progress: IndexRunProgress | null = status?.index.progress ?? null;
	const detail = ["Keyword search answers meanwhile, from the notes indexed so far.", ...meanwhile(status)];
	if (progress === null) return { text: `indexing ${index.done}/${index.total}`, detail };
	const phase = PHASES[progress.phase] ?? OTHER_PHASE;
	const done = index.total === progress.total ? Math.max(index.done, progress.done) : progress.done;
	const share = percent(done, progress.total);
	const eta = formatEta(progress.eta_s);
	const text = [share === null ? phase.verb : `${phase.verb} ${share}%`, eta].filter((p) => p !== "").join(" · ");
	const rate = progress.rate_per_s === null ? "" : ` (${count(progress.rate_per_s)} per second)`;
	const counts = progress.total > 0 ? `: ${count(done)} of ${count(progress.total)} ${phase.items}${rate}.` : ".";
	return { text, detail: [`${capitalise(phase.verb)}${counts}`, ...detail] };
}

/** What semantic search can do while its index is not complete (tooltip sentences, also shown when idle). */
export function meanwhile(status: StatusBody | null): string[] {
	if (status === null) return [];
	const { index } = status;
	const out: string[] = [];
	if (index.dense === "building") {
		const coverage = index.dense_coverage;
		out.push(
			coverage === null
				? "Semantic search is still being built."
				: `Semantic search covers ${Math.floor(coverage * 100)}% of the chunks so far.`,
		);
	}
	if (index.dense_graph === "building") out.push("A search graph is being built in the background; searches stay exact meanwhile.");
	return out;
}

function count(n: number): string {
	return Math.round(n).toLocaleString("en-US");
}

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
