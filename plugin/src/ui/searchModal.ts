/** "Search vault": hybrid search as you type; choosing a result opens the note at its heading. */

import { type App, Notice, SuggestModal } from "obsidian";
import { headingTrail } from "../answer/citations";
import { formatRank } from "../answer/inspect";
import { hitNoiseBadge } from "../answer/noise";
import type { SidecarClient } from "../sidecar/client";
import type { SearchResult } from "../sidecar/wire";
import type { FolderSource } from "../answer/sourceFolders";
import { renderNoiseBadge } from "./noiseBadge";
import { openLocated } from "./openNote";

const DEBOUNCE_MS = 200;
const SNIPPET_CHARS = 160;

export class SearchModal extends SuggestModal<SearchResult> {
	private searchSeq = 0;
	private searchController: AbortController | null = null;
	private lastSearchError = "";

	constructor(
		app: App,
		private readonly searchClient: SidecarClient,
		private readonly searchK: number,
		/** The folders beside the vault the sidecar reported (their files open outside Obsidian). */
		private readonly sources: () => readonly FolderSource[] = () => [],
		private readonly localCopy: () => boolean = () => false,
	) {
		super(app);
		this.setPlaceholder("Search your notes…");
		this.emptyStateText = "No matching notes.";
		this.setInstructions([
			{ command: "↵", purpose: "to open" },
			{ command: "ctrl ↵", purpose: "to open in a new tab" },
		]);
	}

	async getSuggestions(query: string): Promise<SearchResult[]> {
		const seq = ++this.searchSeq;
		const text = query.trim();
		if (text === "") return [];
		await new Promise((resolve) => window.setTimeout(resolve, DEBOUNCE_MS));
		if (seq !== this.searchSeq) return [];
		this.searchController?.abort();
		const controller = new AbortController();
		this.searchController = controller;
		try {
			const body = await this.searchClient.search({ query: text, k: this.searchK }, controller.signal);
			this.lastSearchError = "";
			return body.results;
		} catch (e) {
			if (controller.signal.aborted) return [];
			const message = e instanceof Error ? e.message : String(e);
			if (message !== this.lastSearchError) new Notice(`Search failed: ${message}`);
			this.lastSearchError = message;
			return [];
		}
	}

	renderSuggestion(result: SearchResult, el: HTMLElement): void {
		el.addClass("ask-vault-search-result");
		el.createDiv({ cls: "ask-vault-search-title", text: result.title });
		el.createDiv({ cls: "ask-vault-search-trail", text: headingTrail(result) });
		const snippet = result.text.replace(/\s+/g, " ").trim();
		el.createDiv({
			cls: "ask-vault-search-snippet",
			text: snippet.length > SNIPPET_CHARS ? `${snippet.slice(0, SNIPPET_CHARS)}…` : snippet,
		});
		const ranks = el.createDiv({
			cls: "ask-vault-search-ranks",
			text: `Dense ${formatRank(result.dense_rank)} · keyword ${formatRank(result.keyword_rank)}`,
		});
		renderNoiseBadge(ranks, hitNoiseBadge(result));
	}

	onChooseSuggestion(result: SearchResult, evt: MouseEvent | KeyboardEvent): void {
		openLocated(this.app, result, evt, this.sources(), this.localCopy());
	}

	onClose(): void {
		this.searchController?.abort();
		super.onClose();
	}
}
