/** The DOM of one question and its answer: text, status, error with "Retry", sources sent, inspector with "Why not…?". */

import { type App, Component } from "obsidian";
import { headingTrail, placeLabel, sentSources } from "../answer/citations";
import { type ExplainAction, type ExplainState, idleExplain, reduceExplain } from "../answer/explain";
import { neutraliseAnswer, type SafeAnswer } from "../answer/neutralise";
import { neutralisedNotice, truncatedNotice } from "../answer/notice";
import { closestNotes, closestScores, verdict } from "../answer/relevance";
import type { Turn } from "../answer/state";
import type { Source } from "../sidecar/wire";
import { linkifyCitations, markClosest, markSource } from "./citationDom";
import { renderExplain } from "./explainPanel";
import { renderInspector } from "./inspector";
import { MarkdownStream } from "./markdownStream";

/** A child component of the chat view: the renders of its answer are its own children, unloaded with it. */
export class TurnView extends Component {
	readonly el: HTMLElement;
	private readonly bodyEl: HTMLElement;
	private readonly noticeEl: HTMLElement;
	private readonly cutEl: HTMLElement;
	private readonly statusEl: HTMLElement;
	private readonly sourcesEl: HTMLElement;
	private readonly inspectorEl: HTMLDetailsElement;
	private readonly inspectorBody: HTMLElement;
	private readonly explainEl: HTMLElement;
	private explainState: ExplainState = idleExplain;
	private readonly stream: MarkdownStream;
	private shown: Turn;
	private sourcesByN = new Map<number, Source>();

	constructor(parent: HTMLElement, app: App, turn: Turn) {
		super();
		this.shown = turn;
		this.el = parent.createDiv({ cls: "ask-vault-turn", attr: { "data-turn": turn.id } });
		const q = this.el.createDiv({ cls: "ask-vault-question" });
		if (turn.context) q.createDiv({ cls: "ask-vault-question-context", text: turn.context });
		q.createDiv({ cls: "ask-vault-question-text", text: turn.question });
		const answer = this.el.createDiv({ cls: "ask-vault-answer" });
		this.bodyEl = answer.createDiv({ cls: "ask-vault-answer-body markdown-rendered" });
		this.cutEl = answer.createDiv({ cls: "ask-vault-answer-cut is-hidden" });
		this.noticeEl = answer.createDiv({ cls: "ask-vault-answer-notice" });
		this.statusEl = answer.createDiv({ cls: "ask-vault-answer-status" });
		this.sourcesEl = answer.createDiv({ cls: "ask-vault-sources" });
		this.inspectorEl = answer.createEl("details", { cls: "ask-vault-inspector" });
		this.inspectorEl.createEl("summary", { text: "Inspector" });
		this.explainEl = this.inspectorEl.createDiv({ cls: "ask-vault-inspector-section ask-vault-explain" });
		this.inspectorBody = this.inspectorEl.createDiv({ cls: "ask-vault-inspector-body" });
		this.stream = new MarkdownStream(app, this, this.bodyEl, (rendered) =>
			linkifyCitations(rendered, this.turn.id, this.sourcesByN),
		);
		void this.update(turn, null);
	}

	/** The turn this view shows, as of its last update. */
	get turn(): Turn {
		return this.shown;
	}

	/** Brings the DOM up to date with `turn`; `previous` is what it showed before (null the first time). */
	update(turn: Turn, previous: Turn | null): Promise<void> {
		this.shown = turn;
		const retrievalChanged = previous === null || previous.retrieval !== turn.retrieval;
		if (retrievalChanged) {
			// Asked again: an explanation (or one still coming) was about the previous search.
			this.explainState = reduceExplain(this.explainState, { type: "reset" });
			this.sourcesByN = new Map(sentSources(turn.retrieval).map((s) => [s.n ?? 0, s]));
			this.renderSources();
		}
		if (retrievalChanged || previous?.done !== turn.done) renderInspector(this.inspectorBody, turn.retrieval, turn.done);
		this.inspectorEl.toggleClass("is-hidden", turn.retrieval === null);
		if (retrievalChanged || previous?.status !== turn.status) this.renderExplain();
		this.renderStatus();
		this.el.toggleClass("is-running", turn.status === "waiting" || turn.status === "streaming");
		const final = turn.status !== "waiting" && turn.status !== "streaming";
		const textChanged = previous === null || previous.text !== turn.text || (final && previous.status !== turn.status);
		let shown: string | null = null;
		if (textChanged) {
			// Tokens are the model's raw words: only their inert form is rendered, an unfinished link, image, tag
			// or fence held back until it is complete. The sidecar's final answer is already inert (unchanged here).
			const safe = neutraliseAnswer(turn.text, { streaming: !final });
			this.renderNotice(turn, final ? safe : null);
			shown = safe.text;
		}
		if (retrievalChanged && previous !== null) {
			if (shown !== null) void this.stream.set(shown);
			return this.stream.refresh();
		}
		return shown === null ? Promise.resolve() : this.stream.set(shown, final);
	}

	/** A step of "Why not…?" for this turn; a stale answer (another note picked since) changes nothing. */
	explain(action: ExplainAction): void {
		const next = reduceExplain(this.explainState, action);
		if (next === this.explainState) return;
		this.explainState = next;
		this.inspectorEl.setAttr("open", true);
		this.renderExplain();
	}

	private renderExplain(): void {
		renderExplain(this.explainEl, this.turn, this.explainState);
	}

	onunload(): void {
		this.stream.dispose();
		this.el.detach();
	}

	/** Under a finished answer: what was made inert in it, as the sidecar reported it plus anything caught here. */
	private renderNotice(turn: Turn, safe: SafeAnswer | null): void {
		const cut = safe === null ? null : truncatedNotice(turn.done);
		this.cutEl.setText(cut ?? "");
		this.cutEl.toggleClass("is-hidden", cut === null);
		const items = safe === null ? [] : [...(turn.done?.neutralised ?? []), ...safe.neutralised];
		const text = safe === null ? null : neutralisedNotice(items, turn.done?.sanitized_answer === true);
		this.noticeEl.setText(text ?? "");
		this.noticeEl.toggleClass("is-hidden", text === null);
		if (text !== null) {
			this.noticeEl.setAttr(
				"aria-label",
				"Notes can carry hostile content, so nothing in an answer loads, embeds or runs by itself.",
			);
		}
	}

	private renderStatus(): void {
		const turn = this.turn;
		this.statusEl.empty();
		this.statusEl.removeClass("is-error");
		switch (turn.status) {
			case "waiting":
				this.statusEl.setText("Searching your notes…");
				break;
			case "streaming":
				this.statusEl.setText(turn.text === "" ? "Writing the answer…" : "");
				break;
			case "stopped":
				this.statusEl.setText("Stopped.");
				break;
			case "done": {
				const decided = verdict(turn.retrieval?.relevance ?? null);
				// The sidecar's one sentence says why the notes were kept back (or sent only because asked to).
				if (decided === "abstained" || decided === "forced") this.statusEl.setText(turn.retrieval?.relevance?.reason ?? "");
				else if (turn.done?.no_results) this.statusEl.setText("No note matched, so no model was asked.");
				break;
			}
			case "error": {
				this.statusEl.addClass("is-error");
				const error = turn.error;
				const box = this.statusEl.createDiv({ cls: "ask-vault-error", attr: { role: "alert" } });
				box.createSpan({ cls: "ask-vault-error-message", text: error?.message ?? "Something went wrong." });
				if (error?.code) box.createSpan({ cls: "ask-vault-error-code", text: ` (${error.code})` });
				// The chat view handles the click (one delegated listener for every turn).
				box.createEl("button", { cls: "ask-vault-retry", text: "Retry", attr: { "data-ask-vault-retry": turn.id } });
				break;
			}
		}
	}

	private renderSources(): void {
		this.sourcesEl.empty();
		this.renderClosest();
		const sources = sentSources(this.turn.retrieval);
		if (sources.length === 0) return;
		this.sourcesEl.createDiv({ cls: "ask-vault-sources-title", text: "Sources sent to the model" });
		const list = this.sourcesEl.createEl("ol", { cls: "ask-vault-source-list" });
		for (const source of sources) {
			const item = list.createEl("li");
			const link = item.createEl("a", {
				cls: "ask-vault-source-link",
				text: `[${source.n ?? ""}] ${headingTrail(source)}`,
				attr: { role: "link", tabindex: 0 },
			});
			markSource(link, this.turn.id, source);
			item.createSpan({ cls: "ask-vault-muted", text: ` ${placeLabel(source)}` });
		}
	}

	/** When the sidecar abstained: the closest notes (clickable like sources) and "Ask anyway", which sends them. */
	private renderClosest(): void {
		const closest = closestNotes(this.turn.retrieval);
		if (closest.length === 0) return;
		const box = this.sourcesEl.createDiv({ cls: "ask-vault-closest" });
		box.createDiv({ cls: "ask-vault-sources-title", text: "Closest notes, not used" });
		const list = box.createEl("ul", { cls: "ask-vault-source-list ask-vault-closest-list" });
		for (const source of closest) {
			const item = list.createEl("li");
			const link = item.createEl("a", {
				cls: "ask-vault-source-link ask-vault-closest-link",
				text: headingTrail(source),
				attr: { role: "link", tabindex: 0 },
			});
			markClosest(link, this.turn.id, source);
			item.createSpan({
				cls: "ask-vault-muted ask-vault-closest-scores",
				text: ` ${placeLabel(source)} · ${closestScores(source)}`,
			});
		}
		// The chat view handles the click (one delegated listener for every turn), as for "Retry".
		box.createEl("button", { cls: "ask-vault-ask-anyway", text: "Ask anyway", attr: { "data-ask-vault-force": this.turn.id } });
	}
}
