/** The sidecar HTTP client: one method per route of docs/api.md, with an injectable fetch so tests can drive it. */

import { NdjsonError, readNdjson } from "./ndjson";
import { pairBody, type PairBody, type PairRequest } from "./pairing";
import { isPlainObject, parse, type Schema, SchemaError } from "./schema";
import {
	type AskEvent,
	type AskRequest,
	chunkBody,
	type ChunkBody,
	errorBody,
	explainBody,
	type ExplainBody,
	type ExplainRequest,
	type Filters,
	parseAskEvent,
	parseServerEvent,
	relatedBody,
	type RelatedBody,
	type RelatedRequest,
	searchBody,
	type SearchBody,
	type SearchRequest,
	type ServerEvent,
	statusBody,
	type StatusBody,
} from "./wire";
import { checkApiVersion } from "./version";

/** The subset of `window.fetch` the client needs. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Where the sidecar is and how to authenticate; resolved per request so a restarted sidecar is picked up. */
export interface Endpoint {
	baseUrl: string;
	token: string | null;
}

/**
 * What went wrong, in a form the UI can show as written:
 * `http` — the sidecar answered with an error body (its `code`/`message`);
 * `network` — it could not be reached; `protocol` — it answered something this plugin cannot read;
 * `aborted` — the caller stopped the request; `incompatible` — it speaks another API version (`code` says which
 * side to update: `update_plugin` or `update_sidecar`).
 */
export type SidecarErrorKind = "http" | "network" | "protocol" | "aborted" | "incompatible";

export class SidecarError extends Error {
	constructor(
		readonly kind: SidecarErrorKind,
		readonly code: string,
		message: string,
		readonly status: number | null = null,
	) {
		super(message);
		this.name = "SidecarError";
	}
}

export function isAbort(e: unknown): boolean {
	return (
		(e instanceof SidecarError && e.kind === "aborted") ||
		(typeof e === "object" && e !== null && "name" in e && e.name === "AbortError")
	);
}

/** The routes that are read to learn a sidecar's API version; every other route waits until it matches. */
const VERSION_ROUTES = new Set(["/api/health", "/api/status", "/api/events"]);

export class SidecarClient {
	/** The last sidecar seen speaking another API version: no request it could misread is sent to it. */
	private incompatible: { baseUrl: string; error: SidecarError } | null = null;

	constructor(
		private readonly endpoint: () => Endpoint | Promise<Endpoint>,
		private readonly fetchFn: FetchLike,
	) {}

	/** Liveness only; true when `GET /api/health` answers `{"ok": true}`. */
	async health(signal?: AbortSignal): Promise<boolean> {
		try {
			const res = await this.request("GET", "/api/health", undefined, signal, false);
			const body = (await res.json()) as unknown;
			return isPlainObject(body) && body.ok === true;
		} catch (e) {
			if (isAbort(e)) throw e;
			return false;
		}
	}

	async status(signal?: AbortSignal): Promise<StatusBody> {
		const [res, baseUrl] = await this.send("GET", "/api/status", undefined, signal);
		return this.json(statusBody, res, (value) => this.checkVersion(value, baseUrl));
	}

	async search(req: SearchRequest, signal?: AbortSignal): Promise<SearchBody> {
		return this.json(searchBody, await this.request("POST", "/api/search", req, signal));
	}

	/**
	 * Why `note` was or was not used for `question` (the turn's searched query): its status, best chunk in each leg,
	 * terms, the cut line and what else affected it. Answers 200 even for a missing or excluded note.
	 */
	async explain(question: string, note: string, k?: number, filters?: Filters, signal?: AbortSignal): Promise<ExplainBody> {
		const req: ExplainRequest = { question, note };
		if (k !== undefined) req.k = k;
		if (filters !== undefined && Object.keys(filters).length > 0) req.filters = filters;
		return this.json(explainBody, await this.request("POST", "/api/explain", req, signal));
	}

	/** The notes most like the note at `path`, best first (404 `not_found` when it is not indexed). */
	async related(path: string, k?: number, signal?: AbortSignal): Promise<RelatedBody> {
		const req: RelatedRequest = { path };
		if (k !== undefined) req.k = k;
		return this.json(relatedBody, await this.request("POST", "/api/related", req, signal));
	}

	async chunk(id: string, signal?: AbortSignal): Promise<ChunkBody> {
		return this.json(chunkBody, await this.request("GET", `/api/chunks/${encodeURIComponent(id)}`, undefined, signal));
	}

	/** Starts a reindex: "accepted", or "conflict" when a run is already in progress (HTTP 409). */
	async reindex(full = false, signal?: AbortSignal): Promise<"accepted" | "conflict"> {
		try {
			await this.request("POST", "/api/reindex", { full }, signal);
			return "accepted";
		} catch (e) {
			if (e instanceof SidecarError && e.kind === "http" && e.status === 409) return "conflict";
			throw e;
		}
	}

	/** Pairs a device with a remote sidecar's one-time code (no token): its device token, stored name and fingerprint. */
	async pair(req: PairRequest, signal?: AbortSignal): Promise<PairBody> {
		return this.json(pairBody, await this.request("POST", "/api/pair", req, signal, false));
	}

	/** Streams the events of one answer; aborting `signal` closes the connection, which cancels the generation. */
	async *ask(req: AskRequest, signal?: AbortSignal): AsyncGenerator<AskEvent, void, undefined> {
		const res = await this.request("POST", "/api/ask", req, signal);
		yield* this.stream(res, parseAskEvent, signal);
	}

	/** Streams `GET /api/events` (status first, then index progress, model changes and heartbeats). */
	async *events(signal?: AbortSignal): AsyncGenerator<ServerEvent, void, undefined> {
		const [res, baseUrl] = await this.send("GET", "/api/events", undefined, signal);
		const parseEvent = (value: unknown): ServerEvent | null => {
			if (isPlainObject(value) && value.type === "status") this.checkVersion(value.status, baseUrl);
			return parseServerEvent(value);
		};
		yield* this.stream(res, parseEvent, signal);
	}

	/** Throws (and remembers, for this sidecar) when a status body speaks another API version. */
	private checkVersion(status: unknown, baseUrl: string): void {
		const mismatch = checkApiVersion(status);
		if (mismatch === null) {
			if (this.incompatible?.baseUrl === baseUrl) this.incompatible = null;
			return;
		}
		const error = new SidecarError("incompatible", `update_${mismatch.update}`, mismatch.message);
		this.incompatible = { baseUrl, error };
		throw error;
	}

	private async *stream<T>(
		res: Response,
		parseEvent: (value: unknown) => T | null,
		signal: AbortSignal | undefined,
	): AsyncGenerator<T, void, undefined> {
		if (!res.body) throw new SidecarError("protocol", "no_body", "The sidecar sent an empty stream.");
		try {
			for await (const value of readNdjson(res.body)) {
				let event: T | null;
				try {
					event = parseEvent(value);
				} catch (e) {
					throw e instanceof SidecarError ? e : protocolError(e);
				}
				if (event !== null) yield event;
			}
		} catch (e) {
			throw this.wrap(e, signal);
		}
	}

	private async request(
		method: "GET" | "POST",
		path: string,
		body: unknown,
		signal: AbortSignal | undefined,
		auth = true,
	): Promise<Response> {
		return (await this.send(method, path, body, signal, auth))[0];
	}

	/** Sends one request; returns the response with the base URL it went to. */
	private async send(
		method: "GET" | "POST",
		path: string,
		body: unknown,
		signal: AbortSignal | undefined,
		auth = true,
	): Promise<[Response, string]> {
		const { baseUrl, token } = await this.endpoint();
		const known = this.incompatible;
		if (known?.baseUrl === baseUrl && !VERSION_ROUTES.has(path)) throw known.error;
		const headers: Record<string, string> = {};
		if (auth && token) headers.Authorization = `Bearer ${token}`;
		const init: RequestInit = { method, headers, signal, cache: "no-store" };
		if (body !== undefined) {
			headers["Content-Type"] = "application/json";
			init.body = JSON.stringify(body);
		}
		let res: Response;
		try {
			res = await this.fetchFn(joinUrl(baseUrl, path), init);
		} catch (e) {
			throw this.wrap(e, signal, baseUrl);
		}
		if (!res.ok) throw await httpError(res);
		return [res, baseUrl];
	}

	private async json<T>(schema: Schema<T>, res: Response, check?: (value: unknown) => void): Promise<T> {
		let value: unknown;
		try {
			value = await res.json();
		} catch (e) {
			throw new SidecarError("protocol", "bad_json", `The sidecar sent a body that is not JSON (${errorText(e)}).`);
		}
		check?.(value);
		try {
			return parse(schema, value);
		} catch (e) {
			throw protocolError(e);
		}
	}

	private wrap(e: unknown, signal: AbortSignal | undefined, baseUrl?: string): SidecarError {
		if (e instanceof SidecarError) return e;
		if (signal?.aborted || isAbort(e)) return new SidecarError("aborted", "aborted", "Stopped.");
		if (e instanceof NdjsonError) return new SidecarError("protocol", "bad_stream", e.message);
		const where = baseUrl ? ` at ${baseUrl}` : "";
		return new SidecarError(
			"network",
			"unreachable",
			`Cannot reach the Ask Vault sidecar${where} (${errorText(e)}). Is "askvault serve" running?`,
		);
	}
}

export function joinUrl(baseUrl: string, path: string): string {
	return baseUrl.replace(/\/+$/, "") + path;
}

function protocolError(e: unknown): SidecarError {
	if (e instanceof SchemaError) {
		return new SidecarError("protocol", "bad_shape", `The sidecar sent an unexpected answer (${e.message}).`);
	}
	return new SidecarError("protocol", "bad_shape", `The sidecar sent an unexpected answer (${errorText(e)}).`);
}

async function httpError(res: Response): Promise<SidecarError> {
	let text = "";
	try {
		text = await res.text();
	} catch {
		// The body is optional for an error; the status alone still says what happened.
	}
	try {
		const body = parse(errorBody, JSON.parse(text));
		return new SidecarError("http", body.error.code, body.error.message, res.status);
	} catch {
		const detail = text.trim().slice(0, 200) || res.statusText || "no details";
		return new SidecarError("http", `http_${res.status}`, `The sidecar answered HTTP ${res.status}: ${detail}`, res.status);
	}
}

function errorText(e: unknown): string {
	return e instanceof Error ? e.message : String(e);
}
