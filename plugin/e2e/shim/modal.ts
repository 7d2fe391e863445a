/** Notices and modals: Notice (recorded for assertions), Modal and SuggestModal. */

import type { App } from "./app";
import { records } from "./core";

export class Notice {
	noticeEl: HTMLElement;
	constructor(message: string | DocumentFragment, duration?: number) {
		const text = typeof message === "string" ? message : (message.textContent ?? "");
		records.notices.push(text);
		let container = document.body.querySelector<HTMLElement>(".notice-container");
		if (!container) container = document.body.createDiv({ cls: "notice-container" });
		this.noticeEl = container.createDiv({ cls: "notice", text });
		window.setTimeout(() => this.hide(), duration ?? 5000);
	}
	setMessage(message: string): this {
		this.noticeEl.setText(message);
		return this;
	}
	hide(): void {
		this.noticeEl.detach();
	}
}

export class Modal {
	containerEl: HTMLElement;
	modalEl: HTMLElement;
	titleEl: HTMLElement;
	contentEl: HTMLElement;
	scope: unknown = null;
	private closeCallback: (() => unknown) | null = null;
	constructor(readonly app: App) {
		this.containerEl = createDiv({ cls: "modal-container" });
		this.containerEl.createDiv({ cls: "modal-bg" });
		this.modalEl = this.containerEl.createDiv({ cls: "modal" });
		this.titleEl = this.modalEl.createDiv({ cls: "modal-title" });
		this.contentEl = this.modalEl.createDiv({ cls: "modal-content" });
	}
	open(): void {
		document.body.appendChild(this.containerEl);
		void this.onOpen();
	}
	close(): void {
		this.containerEl.detach();
		this.onClose();
		this.closeCallback?.();
	}
	onOpen(): void | Promise<void> {}
	onClose(): void {}
	setTitle(title: string): this {
		this.titleEl.setText(title);
		return this;
	}
	setContent(content: string | DocumentFragment): this {
		this.contentEl.setText(content);
		return this;
	}
	setCloseCallback(cb: () => unknown): this {
		this.closeCallback = cb;
		return this;
	}
}

export abstract class SuggestModal<T> extends Modal {
	limit = 100;
	emptyStateText = "No results found.";
	inputEl: HTMLInputElement;
	resultContainerEl: HTMLElement;
	private instructionsEl: HTMLElement;
	private _items: T[] = [];
	private _selected = 0;
	private _updateSeq = 0;
	constructor(app: App) {
		super(app);
		this.modalEl.addClass("prompt");
		this.inputEl = this.modalEl.createEl("input", { cls: "prompt-input", attr: { type: "text" } });
		this.resultContainerEl = this.modalEl.createDiv({ cls: "prompt-results" });
		this.instructionsEl = this.modalEl.createDiv({ cls: "prompt-instructions" });
		this.inputEl.addEventListener("input", () => void this.updateSuggestions());
		this.inputEl.addEventListener("keydown", (evt) => {
			if (evt.key === "Enter") {
				const item = this._items[this._selected];
				if (item !== undefined) this.choose(item, evt);
			}
		});
	}
	setPlaceholder(text: string): void {
		this.inputEl.placeholder = text;
	}
	setInstructions(list: { command: string; purpose: string }[]): void {
		this.instructionsEl.empty();
		for (const i of list) this.instructionsEl.createDiv({ text: `${i.command} ${i.purpose}` });
	}
	open(): void {
		super.open();
		this.inputEl.focus();
		void this.updateSuggestions();
	}
	async updateSuggestions(): Promise<void> {
		const seq = ++this._updateSeq;
		const items = await this.getSuggestions(this.inputEl.value);
		if (seq !== this._updateSeq) return;
		this._items = items.slice(0, this.limit);
		this._selected = 0;
		this.resultContainerEl.empty();
		if (this._items.length === 0) {
			this.resultContainerEl.createDiv({ cls: "suggestion-empty", text: this.emptyStateText });
			return;
		}
		for (const item of this._items) {
			const el = this.resultContainerEl.createDiv({ cls: "suggestion-item" });
			this.renderSuggestion(item, el);
			el.addEventListener("click", (evt) => this.choose(item, evt));
		}
	}
	private choose(item: T, evt: MouseEvent | KeyboardEvent): void {
		this.close();
		this.onChooseSuggestion(item, evt);
	}
	abstract getSuggestions(query: string): T[] | Promise<T[]>;
	abstract renderSuggestion(value: T, el: HTMLElement): void;
	abstract onChooseSuggestion(item: T, evt: MouseEvent | KeyboardEvent): void;
}

export interface FuzzyMatch<T> {
	item: T;
	match: { score: number; matches: [number, number][] };
}

/**
 * Obsidian's fuzzy search, roughly: every character of the query in order, case-insensitive; a match scores
 * higher the fewer gaps it has and the earlier it starts. Null when the text does not match.
 */
export function fuzzyScore(query: string, text: string): FuzzyMatch<null>["match"] | null {
	const q = query.toLowerCase().replace(/\s+/g, "");
	const t = text.toLowerCase();
	const matches: [number, number][] = [];
	let at = 0;
	let gaps = 0;
	for (const ch of q) {
		const found = t.indexOf(ch, at);
		if (found === -1) return null;
		if (found === at && matches.length > 0) matches[matches.length - 1]![1] = found + 1;
		else {
			if (matches.length > 0) gaps += 1;
			matches.push([found, found + 1]);
		}
		at = found + 1;
	}
	return { score: -gaps - (matches[0]?.[0] ?? 0) / 100, matches };
}

export abstract class FuzzySuggestModal<T> extends SuggestModal<FuzzyMatch<T>> {
	getSuggestions(query: string): FuzzyMatch<T>[] {
		const items = this.getItems();
		if (query.trim() === "") return items.map((item) => ({ item, match: { score: 0, matches: [] } }));
		const out: FuzzyMatch<T>[] = [];
		for (const item of items) {
			const match = fuzzyScore(query, this.getItemText(item));
			if (match) out.push({ item, match });
		}
		return out.sort((a, b) => b.match.score - a.match.score);
	}
	renderSuggestion(value: FuzzyMatch<T>, el: HTMLElement): void {
		el.setText(this.getItemText(value.item));
	}
	onChooseSuggestion(value: FuzzyMatch<T>, evt: MouseEvent | KeyboardEvent): void {
		this.onChooseItem(value.item, evt);
	}
	abstract getItems(): T[];
	abstract getItemText(item: T): string;
	abstract onChooseItem(item: T, evt: MouseEvent | KeyboardEvent): void;
}
