/** Draws the inspector under an answer: ranking with the sent/not-sent line, reranker, query terms, prompt, timings. */

import { dateScopeFact } from "../answer/dateScope";
import {
	countFacts,
	type Fact,
	ranking,
	rerankApplied,
	rerankFacts,
	termFacts,
	timingFacts,
} from "../answer/inspect";
import { relevanceFacts, verdict } from "../answer/relevance";
import type { DoneEvent, RetrievalEvent } from "../sidecar/wire";
import { renderNoiseBadge } from "./noiseBadge";

/** A definition list of label/value rows (also used by the "Why not…?" panel). */
export function facts(parent: HTMLElement, items: Fact[], cls: string): void {
	const list = parent.createEl("dl", { cls: `ask-vault-facts ${cls}` });
	for (const item of items) {
		const row = list.createDiv({ cls: "ask-vault-fact" });
		row.createEl("dt", { text: item.label });
		row.createEl("dd", { text: item.value });
	}
}

export function renderInspector(el: HTMLElement, retrieval: RetrievalEvent | null, done: DoneEvent | null): void {
	const promptWasOpen = el.querySelector("details.ask-vault-prompt")?.hasAttribute("open") ?? false;
	el.empty();
	if (!retrieval) {
		el.createDiv({ cls: "ask-vault-muted", text: "Nothing retrieved yet." });
		return;
	}

	const query = el.createDiv({ cls: "ask-vault-inspector-section ask-vault-query" });
	if (retrieval.rewritten) {
		query.createDiv({ text: `Rewritten query: ${retrieval.query}` });
		query.createDiv({ cls: "ask-vault-muted", text: `From the follow-up: ${retrieval.question}` });
	} else {
		query.createDiv({ text: `Query: ${retrieval.query}` });
	}
	const dates = dateScopeFact(retrieval.date_scope);
	if (dates) {
		const muted = retrieval.date_scope?.applied ? "" : " ask-vault-muted";
		query.createDiv({ cls: `ask-vault-date-scope${muted}`, text: `${dates.label}: ${dates.value}` });
	}

	if (retrieval.relevance) {
		const kind = verdict(retrieval.relevance) ?? "answered";
		const relevance = el.createDiv({ cls: `ask-vault-inspector-section ask-vault-relevance is-${kind}` });
		relevance.createDiv({ cls: "ask-vault-inspector-title", text: "Relevance" });
		relevance.createDiv({ cls: "ask-vault-muted ask-vault-relevance-reason", text: retrieval.relevance.reason });
		facts(relevance, relevanceFacts(retrieval.relevance), "ask-vault-relevance-facts");
	}

	const ranked = ranking(retrieval);
	const reranked = rerankApplied(retrieval.rerank);
	const columns = ["", "Note › heading", "Dense", "Keyword", "Fused", ...(reranked ? ["Fused #"] : [])];
	const rankSection = el.createDiv({ cls: "ask-vault-inspector-section" });
	rankSection.createDiv({ cls: "ask-vault-inspector-title", text: reranked ? "Reranked ranking" : "Fused ranking" });
	if (ranked.rows.length === 0) {
		rankSection.createDiv({ cls: "ask-vault-muted", text: "No chunk matched." });
	} else {
		const table = rankSection.createEl("table", { cls: "ask-vault-ranking" });
		const head = table.createEl("thead").createEl("tr");
		for (const label of columns) head.createEl("th", { text: label });
		const body = table.createEl("tbody");
		ranked.rows.forEach((row, i) => {
			if (i === ranked.cutAfter && i > 0) {
				const cut = body.createEl("tr", { cls: "ask-vault-cut" });
				cut.createEl("td", {
					text: `Sent to the model above this line (${ranked.cutAfter}); not sent below`,
					attr: { colspan: columns.length },
				});
			}
			const tr = body.createEl("tr", { cls: row.sent ? "is-sent" : "is-unsent" });
			tr.setAttr("data-chunk-id", row.id);
			tr.createEl("td", { text: row.label });
			renderNoiseBadge(tr.createEl("td", { text: row.where }), row.noise);
			tr.createEl("td", { text: row.dense, cls: "ask-vault-num" });
			tr.createEl("td", { text: row.keyword, cls: "ask-vault-num" });
			tr.createEl("td", { text: row.fused, cls: "ask-vault-num" });
			if (reranked) tr.createEl("td", { text: row.fusedPlace, cls: "ask-vault-num" });
		});
		if (ranked.cutAfter === ranked.rows.length || ranked.cutAfter === 0) {
			const text = ranked.cutAfter === 0 ? "None of these were sent to the model" : "All of these were sent to the model";
			const cut = body.createEl("tr", { cls: "ask-vault-cut" });
			cut.createEl("td", { text, attr: { colspan: columns.length } });
		}
	}

	const rerank = rerankFacts(retrieval.rerank);
	if (rerank.length > 0) {
		const rerankSection = el.createDiv({ cls: "ask-vault-inspector-section ask-vault-rerank" });
		rerankSection.createDiv({ cls: "ask-vault-inspector-title", text: "Reranker" });
		facts(rerankSection, rerank, "ask-vault-rerank-facts");
	}

	const termSection = el.createDiv({ cls: "ask-vault-inspector-section" });
	termSection.createDiv({ cls: "ask-vault-inspector-title", text: "Keyword search terms" });
	const terms = termFacts(retrieval);
	if (terms.length === 0) termSection.createDiv({ cls: "ask-vault-muted", text: "No searchable terms." });
	else facts(termSection, terms, "ask-vault-terms");
	facts(termSection, countFacts(retrieval), "ask-vault-counts");

	const timeSection = el.createDiv({ cls: "ask-vault-inspector-section" });
	timeSection.createDiv({ cls: "ask-vault-inspector-title", text: "Time and tokens" });
	facts(timeSection, timingFacts(retrieval, done), "ask-vault-timings");

	const prompt = el.createEl("details", { cls: "ask-vault-inspector-section ask-vault-prompt" });
	if (promptWasOpen) prompt.setAttr("open", true);
	prompt.createEl("summary", { text: `Exact prompt (${retrieval.prompt.length} messages)` });
	for (const message of retrieval.prompt) {
		prompt.createDiv({ cls: "ask-vault-prompt-role", text: message.role });
		prompt.createEl("pre", { cls: "ask-vault-prompt-content", text: message.content });
	}
}
