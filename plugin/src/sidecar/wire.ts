/** Wire types of the sidecar HTTP API (docs/api.md, version 1), each with the schema that checks it at runtime. */

import { arr, bool, type Infer, literal, nullable, num, obj, parse, record, str, typeOf, withDefault } from "./schema";

export type { AskRequest, ExplainRequest, Filters, HistoryMessage, RelatedRequest, SearchRequest } from "./requests";
// Re-exported so the many importers of "./wire" keep one place to import every wire type from.
export type { EmbedderStatus, IndexRunProgress, ModelsStatus, Redactions, ServerEvent, StatusBody } from "./statusWire";
export { parseServerEvent, statusBody } from "./statusWire";

export const API_VERSION = 1;

const term = obj({ term: str, df: num, idf: num });
export type QueryTerm = Infer<typeof term>;
const counts = obj({ dense: num, keyword: num });
const timings = record(nullable(num));

/**
 * What share of a passage says nothing of its own, in percent of its visible characters: lines the vault repeats
 * across many notes (templates, footers), lines that are only links, query blocks (Dataview, Tasks);
 * `informative` is the rest. Absent for plain prose, and from sidecars older than it: read as null.
 */
const noise = obj({ template: num, links: num, query: num, informative: num });
export type Noise = Infer<typeof noise>;
const noiseField = withDefault(nullable(noise), null);

/** The boost label of a hit whose fused score its `noise` lowered (hybrid search). */
export const BOILERPLATE_BOOST = "boilerplate";

const hitFields = {
	id: str,
	path: str,
	title: str,
	heading_path: arr(str),
	start_line: num,
	end_line: num,
	/** The page a PDF's chunk starts on (1-based); null for a note or canvas. */
	page: withDefault(nullable(num), null),
	text: str,
	dense_rank: nullable(num),
	keyword_rank: nullable(num),
	fused_score: num,
	/** What moved it (`identifier:<token>`, `section`, `mention:[[…]]`, `tag:#…`, `boilerplate`); absent: none. */
	boosts: withDefault(arr(str), []),
	noise: noiseField,
};
const searchResult = obj(hitFields);

/** The question's date phrase and what retrieval did with it; `end` is exclusive, either side null when open. */
const dateScope = obj({
	phrase: str,
	start: nullable(str),
	end: nullable(str),
	applied: bool,
	basis: str,
	notes: withDefault(num, 0),
	fallback_reason: nullable(str),
});
export type DateScope = Infer<typeof dateScope>;
/** Null when no phrase was used, and from a sidecar that does not report one. */
const dateScopeField = withDefault(nullable(dateScope), null);
export type SearchResult = Infer<typeof searchResult>;

export const searchBody = obj({
	query: str,
	terms: arr(term),
	counts,
	results: arr(searchResult),
	timings_ms: timings,
	date_scope: dateScopeField,
});
export type SearchBody = Infer<typeof searchBody>;

const source = obj({
	...hitFields,
	n: nullable(num),
	sent: bool,
	/** The dense leg's cosine and the BM25 score; null where that leg missed it, and from older sidecars. */
	dense_score: withDefault(nullable(num), null),
	keyword_score: withDefault(nullable(num), null),
});
export type Source = Infer<typeof source>;

/** What one search said about whether the notes cover the question (null where a leg gave nothing to measure). */
const relevanceSignals = obj({
	top_dense: nullable(num),
	keyword_strength: nullable(num),
	term_coverage: nullable(num),
	legs_agree: bool,
	dense_gap: nullable(num),
	dense_available: withDefault(bool, true),
});
export type RelevanceSignals = Infer<typeof relevanceSignals>;

/** The sidecar's decision, before any model call, whether to answer from the notes at all (docs/api.md). */
const relevance = obj({
	answer: bool,
	score: num,
	threshold: num,
	signals: relevanceSignals,
	calibration: obj({ model: str, source: str }),
	forced: bool,
	reason: str,
});
export type Relevance = Infer<typeof relevance>;

const promptMessage = obj({ role: str, content: str });
export type PromptMessage = Infer<typeof promptMessage>;

/** What the sidecar's optional reranker did (docs/api.md); null when reranking is off or nothing was found. */
const rerankReport = obj({
	applied: bool,
	model: str,
	candidates: num,
	fallback_reason: nullable(str),
	detail: nullable(str),
	ms: nullable(num),
	order_changed: bool,
	omitted: withDefault(num, 0),
	fused_order: withDefault(arr(str), []),
});
export type RerankReport = Infer<typeof rerankReport>;

const retrievalEvent = obj({
	type: literal("retrieval"),
	question: str,
	query: str,
	rewritten: bool,
	terms: arr(term),
	counts,
	sources: arr(source),
	sent: arr(str),
	prompt: arr(promptMessage),
	timings_ms: timings,
	/** Absent from sidecars older than the reranker: read as off. */
	rerank: withDefault(nullable(rerankReport), null),
	date_scope: dateScopeField,
	/** Null from sidecars older than the relevance decision: they always answered. */
	relevance: withDefault(nullable(relevance), null),
	/** When the decision kept the notes back: the closest notes, none of them sent. */
	closest: withDefault(arr(source), []),
});
const tokenEvent = obj({ type: literal("token"), text: str });
const metrics = obj({
	embed_ms: nullable(num),
	retrieval_ms: nullable(num),
	first_token_ms: nullable(num),
	generation_ms: nullable(num),
	total_ms: nullable(num),
	prompt_tokens: nullable(num),
	completion_tokens: nullable(num),
});
const neutralisedItem = obj({ kind: str, target: nullable(str) });
export type NeutralisedItem = Infer<typeof neutralisedItem>;
const doneEvent = obj({
	type: literal("done"),
	answer: str,
	citations: arr(num),
	invalid_citations: withDefault(arr(num), []),
	no_results: bool,
	/** Whether the sidecar changed the model's text to make it inert; null from a sidecar that does not say. */
	sanitized_answer: nullable(bool),
	/** What it made inert: `kind` (image, embed, link, definition, html, code…) and a host, tag or language. */
	neutralised: withDefault(arr(neutralisedItem), []),
	/** Why the model stopped: "stop", "length" (its token cap), "repetition" (the sidecar stopped a loop); null when
	 * no model was called or from a sidecar that does not say. */
	done_reason: withDefault(nullable(str), null),
	/** True exactly when the answer was cut (`length` or `repetition`): it may stop mid-sentence. */
	truncated: withDefault(bool, false),
	metrics,
});
const errorEvent = obj({ type: literal("error"), code: str, message: str, partial: withDefault(str, "") });

export type RetrievalEvent = Infer<typeof retrievalEvent>;
export type TokenEvent = Infer<typeof tokenEvent>;
export type DoneEvent = Infer<typeof doneEvent>;
export type ErrorEvent = Infer<typeof errorEvent>;
export type Metrics = Infer<typeof metrics>;
export type AskEvent = RetrievalEvent | TokenEvent | DoneEvent | ErrorEvent;

export const chunkBody = obj({
	id: str,
	path: str,
	title: str,
	heading_path: arr(str),
	start_line: num,
	end_line: num,
	page: withDefault(nullable(num), null),
	text: str,
});
export type ChunkBody = Infer<typeof chunkBody>;

export const errorBody = obj({ error: obj({ code: str, message: str }) });
export type ErrorBody = Infer<typeof errorBody>;

/** Checks one line of the /api/ask stream; null for an event type this version does not know (skipped). */
export function parseAskEvent(value: unknown): AskEvent | null {
	switch (typeOf(value)) {
		case "retrieval":
			return parse(retrievalEvent, value);
		case "token":
			return parse(tokenEvent, value);
		case "done":
			return parse(doneEvent, value);
		case "error":
			return parse(errorEvent, value);
		default:
			return null;
	}
}

/** A note's best chunk in one leg (dense, keyword, or the fused ranking before the cut); 1-based rank. */
const explainLeg = obj({
	chunk_id: str,
	heading_path: arr(str),
	start_line: num,
	end_line: num,
	rank: num,
	score: num,
});
export type ExplainLeg = Infer<typeof explainLeg>;

/** Why one note was or was not used for a question (`POST /api/explain`); 200 even for a missing or excluded note. */
export const explainBody = obj({
	question: str,
	note: obj({
		path: str,
		/** Null unless indexed: an excluded note's title is never shown. */
		title: nullable(str),
		status: literal("indexed", "excluded", "failed", "not_indexed", "missing"),
		indexed_at: nullable(str),
		chunks: num,
		/** Null when indexed; `rule` is a slug such as `exclude-glob`, `detail` one sentence naming it. */
		reason: nullable(obj({ rule: str, detail: str })),
	}),
	sent: bool,
	summary: str,
	best: obj({ dense: nullable(explainLeg), keyword: nullable(explainLeg), fused: nullable(explainLeg) }),
	terms: obj({ matched: arr(str), missing: arr(str) }),
	cut: obj({ k: num, sent: num, last_score: nullable(num) }),
	dense_available: bool,
	/** `kind`: filter, date_scope, boilerplate, abstention, rerank, prompt_budget, dense_off, privacy (or a later one). */
	factors: withDefault(arr(obj({ kind: str, detail: str })), []),
	relevance: withDefault(nullable(relevance), null),
});
export type ExplainBody = Infer<typeof explainBody>;
export type ExplainNoteStatus = ExplainBody["note"]["status"];
export type ExplainFactor = ExplainBody["factors"][number];

const relatedResult = obj({
	path: str,
	title: str,
	/** Dense: cosine in -1..1; keyword: BM25 normalised to 0..1 by the top result. */
	score: num,
	/** The candidate's chunk closest to the source note: the hover preview and click target. */
	passage: obj({
		chunk_id: str,
		heading_path: arr(str),
		start_line: num,
		end_line: num,
		page: withDefault(nullable(num), null),
		text: str,
		noise: noiseField,
	}),
});
export type RelatedResult = Infer<typeof relatedResult>;

/** The notes most like one note (`POST /api/related`), best first; never the note itself. */
export const relatedBody = obj({
	path: str,
	method: literal("dense", "keyword"),
	results: arr(relatedResult),
	timings_ms: withDefault(timings, {}),
});
export type RelatedBody = Infer<typeof relatedBody>;
