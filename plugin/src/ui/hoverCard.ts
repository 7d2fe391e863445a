/** The fallback preview of a citation (when Page preview shows nothing): chunk text, trail and ranks. */

import { headingTrail, placeLabel } from "../answer/citations";
import { formatRank, formatScore } from "../answer/inspect";
import type { SidecarClient } from "../sidecar/client";
import type { Source } from "../sidecar/wire";

/** The card cannot scroll (it ignores the pointer), so long chunks are cut; a click opens the note. */
const MAX_TEXT = 600;

export interface CardContent {
	source: Source;
	/** The chunk text when the source itself has none (fetched from `GET /api/chunks/{id}`). */
	text?: string;
}

/** The chunk as the retrieval event described it; its text from `GET /api/chunks/{id}` if the event had none. */
export async function cardContent(source: Source, client: SidecarClient): Promise<CardContent> {
	if (source.text.trim() !== "") return { source };
	try {
		const chunk = await client.chunk(source.id);
		return { source, text: chunk.text };
	} catch {
		return { source, text: "The chunk text could not be loaded." };
	}
}

/** Wait before showing, so Obsidian's own Page preview (when enabled) gets to show first. */
export const CARD_DELAY_MS = 350;
const CARD_HIDE_MS = 250;

export class HoverCard {
	private el: HTMLElement | null = null;
	private anchor: HTMLElement | null = null;
	private showTimer: number | null = null;
	private hideTimer: number | null = null;

	constructor(private readonly host: HTMLElement) {}

	/**
	 * Shows the card for `anchor` after a short delay, if `wanted()` still says so then (the pointer may have
	 * left, or Page preview may have shown the note itself); `content` may fetch what the card shows.
	 */
	scheduleShow(anchor: HTMLElement, content: () => Promise<CardContent>, wanted: () => boolean): void {
		this.cancelHide();
		if (this.isFor(anchor)) return;
		this.clearShow();
		this.showTimer = window.setTimeout(() => {
			this.showTimer = null;
			if (!wanted() || !anchor.isConnected) return;
			void content().then((c) => {
				if (anchor.isConnected && wanted()) this.show(anchor, c);
			});
		}, CARD_DELAY_MS);
	}

	scheduleHide(): void {
		this.clearShow();
		this.cancelHide();
		this.hideTimer = window.setTimeout(() => this.hide(), CARD_HIDE_MS);
	}

	get isShown(): boolean {
		return this.el !== null;
	}

	get element(): HTMLElement | null {
		return this.el;
	}

	isFor(anchor: HTMLElement): boolean {
		return this.anchor === anchor;
	}

	show(anchor: HTMLElement, content: CardContent): HTMLElement {
		this.hide();
		const { source } = content;
		const card = this.host.createDiv({ cls: "ask-vault-hover-card", attr: { role: "tooltip" } });
		card.setAttr("data-chunk-id", source.id);
		const label = source.n === null ? "Not used:" : `[${source.n}]`;
		card.createDiv({ cls: "ask-vault-hover-trail", text: `${label} ${headingTrail(source)}` });
		card.createDiv({
			cls: "ask-vault-hover-ranks",
			text: `Dense rank ${formatRank(source.dense_rank)} · keyword rank ${formatRank(source.keyword_rank)} · fused ${formatScore(source.fused_score)} · ${placeLabel(source)}`,
		});
		const text = content.text ?? source.text;
		card.createDiv({
			cls: "ask-vault-hover-text",
			text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text,
		});
		this.place(card, anchor);
		this.el = card;
		this.anchor = anchor;
		return card;
	}

	hide(): void {
		this.clearShow();
		this.cancelHide();
		this.el?.detach();
		this.el = null;
		this.anchor = null;
	}

	private clearShow(): void {
		if (this.showTimer !== null) window.clearTimeout(this.showTimer);
		this.showTimer = null;
	}

	private cancelHide(): void {
		if (this.hideTimer !== null) window.clearTimeout(this.hideTimer);
		this.hideTimer = null;
	}

	/** Below the citation, inside the view; positions go through CSS variables (no inline style assignments). */
	private place(card: HTMLElement, anchor: HTMLElement): void {
		const hostBox = this.host.getBoundingClientRect();
		const box = anchor.getBoundingClientRect();
		const top = box.bottom - hostBox.top + this.host.scrollTop + 4;
		const left = Math.max(0, Math.min(box.left - hostBox.left, hostBox.width - 320));
		card.setCssProps({ "--ask-vault-card-top": `${Math.round(top)}px`, "--ask-vault-card-left": `${Math.round(left)}px` });
	}
}
