import { describe, expect, it } from "vitest";
import { SidecarClient, SidecarError } from "../src/sidecar/client";
import { type AskEvent, parseAskEvent } from "../src/sidecar/wire";
import { askLines, bodyOf, bytes, chop, collect, fakeFetch, fixtureJson, fixtureText, jsonResponse, streamResponse } from "./helpers";

const BASE = "http://127.0.0.1:27582";

function client(respond: Parameters<typeof fakeFetch>[0], token: string | null = "secret-token") {
	const fake = fakeFetch(respond);
	return { client: new SidecarClient(() => ({ baseUrl: `${BASE}/`, token }), fake.fetch), calls: fake.calls };
}

function headers(init: RequestInit): Record<string, string> {
	return (init.headers ?? {}) as Record<string, string>;
}

describe("SidecarClient requests", () => {
	it("sends the token as a bearer header, never in the URL", async () => {
		const { client: c, calls } = client(() => jsonResponse(fixtureJson("status.json")));
		await c.status();
		expect(calls[0]?.url).toBe(`${BASE}/api/status`);
		expect(headers(calls[0]!.init).Authorization).toBe("Bearer secret-token");
		expect(calls[0]?.url).not.toContain("secret-token");
	});

	it("omits Authorization when there is no token, and for the health probe", async () => {
		const { client: c, calls } = client(() => jsonResponse({ ok: true }), null);
		expect(await c.health()).toBe(true);
		expect(headers(calls[0]!.init).Authorization).toBeUndefined();
		const withToken = client(() => jsonResponse({ ok: true }));
		await withToken.client.health();
		expect(headers(withToken.calls[0]!.init).Authorization).toBeUndefined();
	});

	it("posts JSON for search and returns the validated body", async () => {
		const { client: c, calls } = client(() => jsonResponse(fixtureJson("search.json")));
		const body = await c.search({ query: "kodi", k: 5, filters: { folder: "Homelab" } });
		expect(body.results.length).toBe((fixtureJson("search.json") as { results: unknown[] }).results.length);
		expect(calls[0]?.init.method).toBe("POST");
		expect(headers(calls[0]!.init)["Content-Type"]).toBe("application/json");
		expect(bodyOf(calls[0])).toEqual({ query: "kodi", k: 5, filters: { folder: "Homelab" } });
	});

	it("encodes chunk ids into the path", async () => {
		const { client: c, calls } = client(() => jsonResponse(fixtureJson("chunk.json")));
		await c.chunk("a/b c");
		expect(calls[0]?.url).toBe(`${BASE}/api/chunks/a%2Fb%20c`);
	});

	it.each([
		["with k and filters", ["kodi maintenance", "Homelab/Kodi.md", 6, { folder: "Homelab" }], { question: "kodi maintenance", note: "Homelab/Kodi.md", k: 6, filters: { folder: "Homelab" } }],
		["without k, and empty filters left out", ["kodi", "Kodi.md", undefined, {}], { question: "kodi", note: "Kodi.md" }],
	] as const)("posts explain %s and returns the validated golden body", async (_name, args, sent) => {
		const { client: c, calls } = client(() => jsonResponse(fixtureJson("explain.json")));
		const [question, note, k, filters] = args;
		const body = await c.explain(question, note, k, filters);
		expect(calls[0]?.url).toBe(`${BASE}/api/explain`);
		expect(calls[0]?.init.method).toBe("POST");
		expect(headers(calls[0]!.init).Authorization).toBe("Bearer secret-token");
		expect(bodyOf(calls[0])).toEqual(sent);
		expect(body.summary).toBe((fixtureJson("explain.json") as { summary: string }).summary);
	});

	it.each([
		["with k", 5, { path: "Homelab/Kodi.md", k: 5 }],
		["without k", undefined, { path: "Homelab/Kodi.md" }],
	])("posts related %s and returns the validated golden body", async (_name, k, sent) => {
		const { client: c, calls } = client(() => jsonResponse(fixtureJson("related.json")));
		const body = await c.related("Homelab/Kodi.md", k);
		expect(calls[0]?.url).toBe(`${BASE}/api/related`);
		expect(bodyOf(calls[0])).toEqual(sent);
		expect(body.results.map((r) => r.path)).toEqual(
			(fixtureJson("related.json") as { results: { path: string }[] }).results.map((r) => r.path),
		);
	});

	it("related: a note the sidecar has not indexed is its 404 as written", async () => {
		const { client: c } = client(() => jsonResponse({ error: { code: "not_found", message: "no indexed note at this path" } }, 404));
		await expect(c.related("Private/x.md")).rejects.toMatchObject({
			kind: "http",
			status: 404,
			code: "not_found",
			message: "no indexed note at this path",
		});
	});

	it("explain: an answer that breaks the contract is a protocol error", async () => {
		const { client: c } = client(() => jsonResponse({ question: "q", summary: "s" }));
		await expect(c.explain("q", "a.md")).rejects.toMatchObject({ kind: "protocol", code: "bad_shape" });
	});

	it.each([
		[202, "accepted"],
		[409, "conflict"],
	])("reindex answers %i → %s", async (status, outcome) => {
		const body = status === 202 ? { accepted: true } : { error: { code: "conflict", message: "already indexing" } };
		const { client: c, calls } = client(() => jsonResponse(body, status));
		expect(await c.reindex()).toBe(outcome);
		expect(bodyOf(calls[0])).toEqual({ full: false });
	});
});

describe("SidecarClient errors", () => {
	it("shows the sidecar's error body as written (golden error.json)", async () => {
		const golden = fixtureJson("error.json") as { error: { code: string; message: string } };
		const { client: c } = client(() => jsonResponse(golden, 400));
		const error = await c.search({ query: "x" }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(SidecarError);
		expect(error).toMatchObject({ kind: "http", status: 400, code: golden.error.code, message: golden.error.message });
	});

	it.each([
		["401", 401, { error: { code: "unauthorized", message: "missing or wrong token" } }, "unauthorized"],
		["424", 424, { error: { code: "model_missing", message: "ollama pull x" } }, "model_missing"],
		["a non-JSON 502", 502, "Bad gateway", "http_502"],
	])("maps HTTP %s", async (_n, status, body, code) => {
		const { client: c } = client(() =>
			typeof body === "string" ? new Response(body, { status }) : jsonResponse(body, status),
		);
		await expect(c.status()).rejects.toMatchObject({ kind: "http", status, code });
	});

	it("reports an unreachable sidecar readably", async () => {
		const { client: c } = client(() => {
			throw new TypeError("Failed to fetch");
		});
		const error = await c.status().catch((e: unknown) => e);
		expect(error).toMatchObject({ kind: "network", code: "unreachable" });
		expect((error as Error).message).toContain(BASE);
		expect((error as Error).message).toContain('"askvault serve"');
		expect(await c.health()).toBe(false);
	});

	it("rejects a body that breaks the contract", async () => {
		const { client: c } = client(() => jsonResponse({ api_version: 1 }));
		await expect(c.status()).rejects.toMatchObject({ kind: "protocol", code: "bad_shape" });
	});
});

describe("SidecarClient.ask streaming", () => {
	it.each([[[1]], [[5, 17]], [[4096]]])("yields the golden events in order, chunked %j", async (sizes) => {
		const { client: c, calls } = client(() => streamResponse(chop(bytes(fixtureText("ask.ndjson")), sizes)));
		const events = await collect(c.ask({ question: "and its port?", history: [{ role: "user", content: "hi" }] }));
		// Each line as read whole: the fields the sidecar left out (a plain source's `noise`, `boosts`) read as their defaults.
		expect(events).toEqual(askLines().map((l) => parseAskEvent(l)));
		expect(bodyOf(calls[0])).toEqual({
			question: "and its port?",
			history: [{ role: "user", content: "hi" }],
		});
	});

	it("turns an invalid line into a protocol error after the good events", async () => {
		const { client: c } = client(() => streamResponse([bytes('{"type":"token","text":"a"}\nnot json\n')]));
		const seen: AskEvent[] = [];
		const error = await (async () => {
			for await (const e of c.ask({ question: "q" })) seen.push(e);
		})().catch((e: unknown) => e);
		expect(seen).toEqual([{ type: "token", text: "a" }]);
		expect(error).toMatchObject({ kind: "protocol", code: "bad_stream" });
	});

	it("turns an event of the wrong shape into a protocol error", async () => {
		const { client: c } = client(() => streamResponse([bytes('{"type":"token","text":5}\n')]));
		await expect(collect(c.ask({ question: "q" }))).rejects.toMatchObject({ kind: "protocol", code: "bad_shape" });
	});

	it("stops with an 'aborted' error when the caller aborts mid-stream", async () => {
		const controller = new AbortController();
		const lines = askLines().map((l) => bytes(`${JSON.stringify(l)}\n`));
		const { client: c } = client((call) => streamResponse(lines, { delayMs: 5, signal: call.init.signal ?? undefined }));
		const seen: AskEvent[] = [];
		const error = await (async () => {
			for await (const e of c.ask({ question: "q" }, controller.signal)) {
				seen.push(e);
				if (seen.length === 1) controller.abort();
			}
		})().catch((e: unknown) => e);
		expect(seen).toHaveLength(1);
		expect(error).toMatchObject({ kind: "aborted" });
	});

	it("reports a connection dropped mid-stream as a network error", async () => {
		const { client: c } = client(() =>
			streamResponse([bytes('{"type":"token","text":"a"}\n')], { failWith: new TypeError("network error") }),
		);
		await expect(collect(c.ask({ question: "q" }))).rejects.toMatchObject({ kind: "network" });
	});
});
