/** Draws "Why not…?" at the top of a turn's inspector: the control, then the explanation of the picked note. */

import { canExplain, type ExplainState, factorFacts, legRows, outcomeFacts, reasonFact, statusFacts } from "../answer/explain";
import { relevanceFacts } from "../answer/relevance";
import type { Turn } from "../answer/state";
import type { ExplainBody } from "../sidecar/wire";
import { facts } from "./inspector";

/** The chat view handles the click (one delegated listener for every turn), as for "Retry". */
export const EXPLAIN_ATTR = "data-ask-vault-explain";

export function renderExplain(el: HTMLElement, turn: Turn, state: ExplainState): void {
	el.empty();
	const shown = canExplain(turn);
	el.toggleClass("is-hidden", !shown);
	if (!shown) return;
	const head = el.createDiv({ cls: "ask-vault-explain-head" });
	head.createEl("button", {
		cls: "ask-vault-why-not",
		text: "Why not…?",
		attr: { [EXPLAIN_ATTR]: turn.id, "aria-label": "Pick a note and see why it was or was not used" },
	});
	head.createSpan({ cls: "ask-vault-muted", text: " Pick a note to see how it ranked for this question." });

	const result = el.createDiv({ cls: "ask-vault-explain-result" });
	switch (state.kind) {
		case "idle":
			result.addClass("is-hidden");
			return;
		case "loading":
			result.createDiv({ cls: "ask-vault-muted ask-vault-explain-loading", text: `Explaining ${state.note}…` });
			return;
		case "error": {
			result.createDiv({ cls: "ask-vault-explain-note", text: state.note });
			const box = result.createDiv({ cls: "ask-vault-error", attr: { role: "alert" } });
			box.createSpan({ cls: "ask-vault-error-message", text: state.message });
			box.createSpan({ cls: "ask-vault-error-code", text: ` (${state.code})` });
			return;
		}
		case "done":
			renderBody(result, state.body);
	}
}

function renderBody(el: HTMLElement, body: ExplainBody): void {
	const note = body.note.title === null ? body.note.path : `${body.note.title} · ${body.note.path}`;
	el.createDiv({ cls: "ask-vault-explain-note", text: note });
	el.createDiv({ cls: `ask-vault-explain-summary ${body.sent ? "is-sent" : "is-unsent"}`, text: body.summary });
	facts(el, statusFacts(body.note), "ask-vault-explain-status");
	const reason = reasonFact(body.note);
	if (reason !== null) facts(el, [reason], "ask-vault-explain-reason");

	if (body.note.status === "indexed") {
		const table = el.createEl("table", { cls: "ask-vault-ranking ask-vault-explain-legs" });
		const head = table.createEl("thead").createEl("tr");
		for (const label of ["", "Best chunk", "Rank", "Score", "Lines"]) head.createEl("th", { text: label });
		const rows = table.createEl("tbody");
		for (const row of legRows(body)) {
			const tr = rows.createEl("tr", { cls: row.found ? "is-found" : "is-unsent" });
			tr.setAttr("data-leg", row.leg.toLowerCase());
			tr.createEl("td", { text: row.leg });
			tr.createEl("td", { text: row.where });
			tr.createEl("td", { text: row.rank, cls: "ask-vault-num" });
			tr.createEl("td", { text: row.score, cls: "ask-vault-num" });
			tr.createEl("td", { text: row.lines, cls: "ask-vault-num" });
		}
	}
	facts(el, outcomeFacts(body), "ask-vault-explain-outcome");

	const factors = factorFacts(body.factors);
	if (factors.length > 0) {
		const section = el.createDiv({ cls: "ask-vault-explain-factors-section" });
		section.createDiv({ cls: "ask-vault-inspector-title", text: "What else affected it" });
		facts(section, factors, "ask-vault-explain-factors");
	}
	if (body.relevance !== null) {
		const section = el.createDiv({ cls: "ask-vault-explain-relevance" });
		section.createDiv({ cls: "ask-vault-inspector-title", text: "Relevance" });
		section.createDiv({ cls: "ask-vault-muted", text: body.relevance.reason });
		facts(section, relevanceFacts(body.relevance), "ask-vault-explain-relevance-facts");
	}
}
