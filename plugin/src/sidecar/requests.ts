/** The request bodies the plugin sends (docs/api.md); plain types, checked by the sidecar. */

export interface Filters {
	folder?: string;
	tag?: string;
	modified_after?: string | number;
	modified_before?: string | number;
}

export interface HistoryMessage {
	role: "user" | "assistant";
	content: string;
}

export interface AskRequest {
	question: string;
	history?: HistoryMessage[];
	k?: number;
	filters?: Filters;
	/** Send the closest notes to the model even when the sidecar judged they do not cover the question. */
	force?: boolean;
}

export interface SearchRequest {
	query: string;
	k?: number;
	mode?: "hybrid" | "dense" | "keyword";
	filters?: Filters;
}

export interface ExplainRequest {
	/** The turn's searched query (the retrieval event's `query`), so the note is judged against what was searched. */
	question: string;
	/** Vault-relative path with `/`, e.g. `Homelab/Kodi.md`. */
	note: string;
	k?: number;
	filters?: Filters;
}

export interface RelatedRequest {
	path: string;
	k?: number;
}
