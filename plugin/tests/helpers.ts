/** Test helpers: the golden API bodies and the neutraliser corpus shared with the sidecar's tests, and Responses around byte streams. */

import { readFileSync } from "node:fs";
import path from "node:path";
import { SchemaError } from "../src/sidecar/schema";

/** Set by vitest.config.ts from its own location, so it holds in every test environment (jsdom included). */
const FIXTURES = process.env.ASK_VAULT_FIXTURES ?? "";

function sharedText(...parts: string[]): string {
	if (FIXTURES === "") throw new Error("ASK_VAULT_FIXTURES is not set: run the tests through vitest.config.ts");
	return readFileSync(path.join(FIXTURES, ...parts), "utf8");
}

/** A golden API body (tests/fixtures/api/), as the sidecar's tests produced it. */
export function fixtureText(name: string): string {
	return sharedText("api", name);
}

/** One case of the neutraliser corpus: `inert` is the sidecar's `done.answer`, `neutralised` its `kind:target` notes. */
export interface NeutraliseCase {
	id: string;
	input: string;
	inert: string;
	neutralised: string[];
}

/** The corpus both neutralisers are tested on (tests/fixtures/neutralise/cases.json). */
export function neutraliseCases(): NeutraliseCase[] {
	return JSON.parse(sharedText("neutralise", "cases.json")) as NeutraliseCase[];
}

/** The sidecar writes `[image removed: host]` and escapes it only where a neighbour could link it; the plugin always does. */
export const asPlugin = (sidecar: string): string => sidecar.replace(/\\?\[(image removed(?:: [^\]\\]*)?)\\?\]/g, "\\[$1\\]");

export function fixtureJson(name: string): unknown {
	return JSON.parse(fixtureText(name)) as unknown;
}

/** The golden ask stream (or another golden NDJSON body), one parsed value per non-blank line. */
export function askLines(name = "ask.ndjson"): unknown[] {
	return fixtureText(name)
		.split("\n")
		.filter((l) => l.trim() !== "")
		.map((l) => JSON.parse(l) as unknown);
}

/** The golden stream of a question the notes do not cover: the sidecar abstained and listed the closest notes. */
export function abstainLines(): unknown[] {
	return askLines("ask_abstain.ndjson");
}

const encoder = new TextEncoder();

export function bytes(text: string): Uint8Array {
	return encoder.encode(text);
}

/** Cuts bytes into chunks of the given sizes (cycling), so lines and characters split anywhere. */
export function chop(data: Uint8Array, sizes: number[]): Uint8Array[] {
	const out: Uint8Array[] = [];
	let at = 0;
	let i = 0;
	while (at < data.length) {
		const size = Math.max(1, sizes[i % sizes.length] ?? 1);
		out.push(data.slice(at, at + size));
		at += size;
		i += 1;
	}
	return out;
}

export interface StreamOptions {
	/** Wait this long before each chunk (lets a test abort mid-stream). */
	delayMs?: number;
	/** Fail the stream with this error after the chunks. */
	failWith?: Error;
	signal?: AbortSignal;
}

export function byteStream(chunks: Uint8Array[], opts: StreamOptions = {}): ReadableStream<Uint8Array> {
	let i = 0;
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
			if (opts.signal?.aborted) {
				controller.error(new DOMException("The operation was aborted.", "AbortError"));
				return;
			}
			const chunk = chunks[i++];
			if (chunk) controller.enqueue(chunk);
			else if (opts.failWith) controller.error(opts.failWith);
			else controller.close();
		},
	});
}

export function streamResponse(chunks: Uint8Array[], opts: StreamOptions & { status?: number; contentType?: string } = {}): Response {
	return new Response(byteStream(chunks, opts), {
		status: opts.status ?? 200,
		headers: { "Content-Type": opts.contentType ?? "application/x-ndjson" },
	});
}

export function jsonResponse(body: unknown, status = 200): Response {
	return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
	const out: T[] = [];
	for await (const x of it) out.push(x);
	return out;
}

export interface Call {
	url: string;
	init: RequestInit;
}

/** A fake fetch that records calls and answers with `respond`. */
export function fakeFetch(respond: (call: Call) => Response | Promise<Response>): {
	fetch: (url: string, init: RequestInit) => Promise<Response>;
	calls: Call[];
} {
	const calls: Call[] = [];
	return {
		calls,
		fetch: async (url, init) => {
			const call = { url, init };
			calls.push(call);
			return respond(call);
		},
	};
}

/** The JSON body a call sent (requests always send JSON strings). */
export function bodyOf(call: Call | undefined): Record<string, unknown> {
	const body = call?.init.body;
	if (typeof body !== "string") throw new Error("no JSON body");
	return JSON.parse(body) as Record<string, unknown>;
}

/** The field a refused body names: the path of the `SchemaError` that `run` throws (fails if it throws nothing else). */
export function refusedAt(run: () => unknown): string {
	try {
		run();
	} catch (e) {
		if (e instanceof SchemaError) return e.path;
		throw e;
	}
	throw new Error("accepted, expected a SchemaError");
}
