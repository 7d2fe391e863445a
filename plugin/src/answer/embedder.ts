/** The embedder in words, for the status bar and the settings tab: which one, why that one, what is wrong with it. */

import type { EmbedderStatus, StatusBody } from "../sidecar/wire";

/** Why the sidecar uses this embedder (`embedder.source`). */
const SOURCES: Record<string, string> = {
	default: "built in",
	index: "the one this index was built with",
	configured: "set in the sidecar's configuration",
};

/** `embedder.source` in words; a reason a newer sidecar adds is shown as it is. */
export function describeSource(source: string): string {
	return SOURCES[source] ?? source;
}

/** The status bar's few words: the embedder's label, or "keyword only" while it is unavailable. */
export function embedderText(embedder: EmbedderStatus): string {
	return embedder.problem === null ? embedder.label : "keyword only";
}

/** Tooltip sentences: which embedder and why, a rebuild under way, and why search is keyword-only (with the fix). */
export function embedderSentences(embedder: EmbedderStatus): string[] {
	const out = [`Embedder: ${embedder.label} (${describeSource(embedder.source)}).`];
	if (embedder.replaces !== null) {
		out.push(
			`The index was built with ${embedder.replaces}; its vectors are being rebuilt with this one, and keyword search covers what is not embedded yet.`,
		);
	}
	if (embedder.problem !== null) out.push(keywordOnly(embedder.problem));
	return out;
}

/** "Keyword search only: <the sidecar's sentence with its fix>." */
export function keywordOnly(problem: string): string {
	return `Keyword search only: ${asSentence(problem)}`;
}

/** The settings tab's "Embedder" line: the label and why, its problem, and what needs Ollama. */
export function describeEmbedderSetting(status: StatusBody | null): string {
	if (status === null) return "Shown once the sidecar is connected.";
	const chat = `answers need an Ollama chat model (${status.models.chat.name})`;
	const withOllama = `Keyword search works without Ollama; semantic search needs this Ollama model, and ${chat}.`;
	const embedder = status.embedder;
	if (embedder === null) {
		// A sidecar older than the built-in embedder: its embedding model is always an Ollama model.
		const problem = status.models.embed.problem;
		return [`Ollama: ${status.models.embed.name}.`, problem ? keywordOnly(problem) : "", withOllama].filter((p) => p !== "").join(" ");
	}
	const needs = embedder.backend === "builtin" ? `Search works without Ollama; ${chat}.` : withOllama;
	return [`${embedder.label} — ${describeSource(embedder.source)}.`, ...embedderSentences(embedder).slice(1), needs].join(" ");
}

/** The notice after "Check connection": the sidecar, the note count, the embedder, and any model problems. */
export function describeCheck(status: StatusBody, baseUrl: string | null): string {
	const via = baseUrl ? ` at ${baseUrl}` : "";
	const { embedder, models } = status;
	// The embedder's own problem (with its fix) stands for the embedding model's entry: for the built-in embedder
	// they are the same sentence.
	return [
		`Connected to Ask Vault ${status.version}${via}: ${status.vault.notes} notes.`,
		...(embedder === null ? [] : embedderSentences(embedder)),
		(embedder?.problem ?? null) === null ? (models.embed.problem ?? "") : "",
		models.chat.problem ?? "",
	]
		.filter((p) => p !== "")
		.join(" ");
}

/** Ends a sentence the sidecar words without a full stop. */
function asSentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
