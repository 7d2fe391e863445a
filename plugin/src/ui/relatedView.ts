/** The "Related notes" sidebar: notes like the active one, each with its score; hover previews, click opens the passage. */

import { type HoverParent, type HoverPopover, ItemView, type TFile, type WorkspaceLeaf } from "obsidian";
import { linktextFor } from "../answer/citations";
import {
	formatRelatedScore,
	passageNoise,
	passageOf,
	passageTrail,
	RelatedFeed,
	relatedMessage,
	type RelatedState,
	scoreLabel,
} from "../answer/related";
import type { RelatedResult } from "../sidecar/wire";
import { RELATED_ICON, VIEW_TYPE_RELATED } from "../constants";
import { outsideFile } from "../answer/sourceFolders";
import { type AskVaultHost, folderSources, localCopyOnly } from "../plugin/host";
import { renderNoiseBadge } from "./noiseBadge";
import { openLocated } from "./openNote";

const ENTRY_SELECTOR = "[data-ask-vault-related]";

export class RelatedView extends ItemView implements HoverParent {
	hoverPopover: HoverPopover | null = null;
	private feed!: RelatedFeed;
	private headerEl!: HTMLElement;
	private messageEl!: HTMLElement;
	private listEl!: HTMLElement;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly host: AskVaultHost,
	) {
		super(leaf);
	}

	getViewType(): string {
		return VIEW_TYPE_RELATED;
	}

	getDisplayText(): string {
		return "Related notes";
	}

	getIcon(): string {
		return RELATED_ICON;
	}

	protected async onOpen(): Promise<void> {
		const root = this.contentEl;
		root.empty();
		root.addClass("ask-vault-related-view");
		this.addAction("refresh-cw", "Refresh related notes", () => this.feed.refresh());
		this.headerEl = root.createDiv({ cls: "ask-vault-related-note" });
		this.messageEl = root.createDiv({ cls: "ask-vault-muted ask-vault-related-message" });
		this.listEl = root.createEl("ol", { cls: "ask-vault-related-list" });

		this.feed = new RelatedFeed({
			fetch: (path, signal) => this.host.connection.client.related(path, undefined, signal),
			setTimeout: (fn, ms) => window.setTimeout(fn, ms),
			clearTimeout: (id) => window.clearTimeout(id),
			onState: (state) => this.render(state),
		});
		this.register(() => this.feed.dispose());

		this.registerEvent(this.app.workspace.on("file-open", () => this.follow()));
		this.registerEvent(
			this.app.workspace.on("active-leaf-change", (leaf) => {
				// Focusing this pane is not a change of note.
				if (leaf !== this.leaf) this.follow();
			}),
		);
		this.registerDomEvent(this.listEl, "mouseover", (evt) => this.onHover(evt));
		this.registerDomEvent(this.listEl, "click", (evt) => this.onOpenEntry(evt));
		this.registerDomEvent(this.listEl, "keydown", (evt) => {
			if (evt.key === "Enter") this.onOpenEntry(evt);
		});
		this.render(this.feed.state);
		this.follow();
	}

	protected async onClose(): Promise<void> {
		this.feed.dispose();
	}

	/** Follows the active note; anything that is not a Markdown note counts as none. */
	private follow(): void {
		const file: TFile | null = this.app.workspace.getActiveFile();
		this.feed.setNote(file && file.extension === "md" ? file.path : null);
	}

	private render(state: RelatedState): void {
		this.headerEl.setText(state.kind === "no-note" ? "" : state.path);
		this.headerEl.toggleClass("is-hidden", state.kind === "no-note");
		this.messageEl.setText(relatedMessage(state));
		this.messageEl.toggleClass("is-error", state.kind === "error" || state.kind === "unreachable");
		this.messageEl.setAttr("role", state.kind === "error" || state.kind === "unreachable" ? "alert" : null);
		this.listEl.empty();
		if (state.kind !== "ready") return;
		const label = scoreLabel(state.body.method);
		state.body.results.forEach((result, i) => this.renderEntry(result, i, label));
	}

	private renderEntry(result: RelatedResult, index: number, label: string): void {
		const item = this.listEl.createEl("li", { cls: "ask-vault-related-item" });
		const link = item.createEl("a", {
			cls: "ask-vault-related-link",
			attr: {
				"data-ask-vault-related": index,
				"data-href": linktextFor(passageOf(result)),
				role: "link",
				tabindex: 0,
			},
		});
		link.createSpan({ cls: "ask-vault-related-title", text: result.title });
		const score = formatRelatedScore(result.score);
		link.createSpan({ cls: "ask-vault-related-score", text: score, attr: { "aria-label": `${label} ${score}` } });
		const passage = item.createDiv({ cls: "ask-vault-related-passage" });
		passage.createSpan({ cls: "ask-vault-muted ask-vault-related-trail", text: passageTrail(result) });
		renderNoiseBadge(passage, passageNoise(result));
	}

	private entryAt(evt: UIEvent): { el: HTMLElement; result: RelatedResult } | null {
		const node = evt.targetNode;
		if (!node || !node.instanceOf(HTMLElement)) return null;
		const el = node.closest<HTMLElement>(ENTRY_SELECTOR);
		const state = this.feed.state;
		if (!el || state.kind !== "ready") return null;
		const result = state.body.results[Number(el.getAttr("data-ask-vault-related"))];
		return result ? { el, result } : null;
	}

	private onHover(evt: MouseEvent): void {
		const hit = this.entryAt(evt);
		if (!hit || outsideFile(hit.result.path, folderSources(this.host)) !== null) return; // no note to preview
		this.app.workspace.trigger("hover-link", {
			event: evt,
			source: VIEW_TYPE_RELATED,
			hoverParent: this,
			targetEl: hit.el,
			linktext: linktextFor(passageOf(hit.result)),
			sourcePath: this.feed.path ?? "",
		});
	}

	private onOpenEntry(evt: MouseEvent | KeyboardEvent): void {
		const hit = this.entryAt(evt);
		if (!hit) return;
		evt.preventDefault();
		openLocated(this.app, passageOf(hit.result), evt, folderSources(this.host), localCopyOnly(this.host));
	}
}
