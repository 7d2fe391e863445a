/** Remote mode's transport over a fake fetch: the fingerprint check a phone makes, timeouts, last reached, each failure's sentence, pairing. */
import { describe, expect, it } from "vitest";
import { isAbort, SidecarClient, SidecarError } from "../src/sidecar/client";
import { PairingError } from "../src/sidecar/pairing";
import { pairDevice, parseStoredRemote, RemoteTransport, type RemoteOptions, whenReached } from "../src/sidecar/remote";
import { bodyOf, bytes, type Call, collect, fakeFetch, fixtureJson, jsonResponse, streamResponse } from "./helpers";
import { ManualTimers } from "./manualTimers";

const FP = Array.from({ length: 32 }, (_, i) => (i * 7 + 16).toString(16).toUpperCase().padStart(2, "0")).join(":");
const OTHER = FP.replace(/^../, "00");
const ADDRESS = "192.168.1.5:8765";
const BASE = `https://${ADDRESS}`;


function setup(respond: (call: Call) => Response | Promise<Response>, options: Partial<RemoteOptions> = {}) {
	const fake = fakeFetch(respond);
	const timers = new ManualTimers();
	const reached: number[] = [];
	let last: number | null = new Date(2026, 4, 3, 10, 42).getTime();
	const transport = new RemoteTransport(fake.fetch, { address: ADDRESS, fingerprint: FP }, {
		checkHealth: true,
		timers,
		now: () => new Date(2026, 4, 3, 12, 0).getTime(),
		lastReached: () => last,
		reached: () => {
			reached.push(1);
			last = new Date(2026, 4, 3, 11, 0).getTime();
		},
		...options,
	});
	const client = new SidecarClient(() => ({ baseUrl: transport.baseUrl, token: "device-token" }), transport.fetch);
	return { calls: fake.calls, timers, reached, transport, client };
}

const health = (fingerprint: unknown = FP) => jsonResponse({ ok: true, fingerprint });
const paths = (calls: Call[]) => calls.map((c) => new URL(c.url).pathname);
const auth = (call: Call | undefined) => (call?.init.headers as Record<string, string> | undefined)?.Authorization;

describe("the fingerprint check where the platform hides the certificate", () => {
	it("asks /api/health without the token first, once, then sends requests with it", async () => {
		const { calls, client, reached } = setup((call) => (call.url.endsWith("/api/health") ? health(FP.toLowerCase()) : jsonResponse(fixtureJson("status.json"))));
		await client.status();
		await client.status();
		expect(paths(calls)).toEqual(["/api/health", "/api/status", "/api/status"]);
		expect(calls[0]?.url).toBe(`${BASE}/api/health`);
		expect(auth(calls[0])).toBeUndefined();
		expect(auth(calls[1])).toBe("Bearer device-token");
		expect(reached.length).toBeGreaterThanOrEqual(3);
	});

	it.each([
		["another certificate", health(OTHER), "certificate_mismatch", `The sidecar at ${ADDRESS} presented a certificate that is not the one you paired with (SHA-256 00:17:1E:25…); if you made a new one, pair again.`],
		["no fingerprint", jsonResponse({ ok: true }), "no_fingerprint", `The sidecar at ${ADDRESS} does not say which certificate it uses (no fingerprint in /api/health), so this device cannot tell it is the one you paired with; update askvault there.`],
		["an HTTP error", jsonResponse({ error: { code: "forbidden_host", message: "no" } }, 403), "http_403", `The sidecar at ${ADDRESS} answered /api/health with HTTP 403; is it an Ask Vault sidecar started with \`--remote\`?`],
	])("refuses, sending nothing more, when health names %s", async (_name, answer, code, message) => {
		const { calls, client, reached } = setup(() => answer.clone());
		const error = await client.status().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(SidecarError);
		expect(error).toMatchObject({ code, message });
		expect(paths(calls)).toEqual(["/api/health"]);
		expect(reached).toEqual([]);
		// A refused check is made again by the next request, not remembered as passed.
		await client.status().catch(() => undefined);
		expect(paths(calls)).toEqual(["/api/health", "/api/health"]);
	});

	it("says a failed fetch may be an untrusted certificate or an unreachable address, with when it was last reached", async () => {
		const { client } = setup(() => {
			throw new TypeError("Load failed");
		});
		const error = await client.status().catch((e: unknown) => e);
		expect(error).toMatchObject({ kind: "network", code: "remote_untrusted" });
		expect((error as Error).message).toBe(
			`Ask Vault cannot reach the sidecar at ${ADDRESS} (last reached 10:42): this device could not make a trusted encrypted connection to it, because it does not trust the sidecar's certificate or cannot reach that address; trust the certificate on this device or use a \`tailscale cert\` one, check that the sidecar runs, and see docs/remote.md.`,
		);
	});

	it("checks again after a request fails", async () => {
		let fail = false;
		const { calls, client } = setup((call) => {
			if (call.url.endsWith("/api/health")) return health();
			if (fail) throw new Error("socket hang up");
			return jsonResponse(fixtureJson("status.json"));
		});
		await client.status();
		fail = true;
		const error = await client.status().catch((e: unknown) => e);
		expect(error).toMatchObject({ code: "remote_unreachable" });
		expect((error as Error).message).toContain("(last reached 11:00; socket hang up)");
		fail = false;
		await client.status();
		expect(paths(calls)).toEqual(["/api/health", "/api/status", "/api/status", "/api/health", "/api/status"]);
	});
});

describe("timeouts and streams", () => {
	it("gives up on a health check that takes 10 s, and on a request quiet for 2 minutes", async () => {
		let hang = true;
		const { client, timers } = setup((call) =>
			call.url.endsWith("/api/health") && !hang
				? health()
				: new Promise<Response>((_resolve, reject) => call.init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")))),
		);
		const first = client.status().catch((e: unknown) => e);
		await Promise.resolve();
		timers.fire(10_000);
		expect(await first).toMatchObject({ code: "remote_timeout", message: expect.stringContaining("(last reached 10:42; no answer within 10 s)") as string });
		hang = false;
		const second = client.status().catch((e: unknown) => e);
		while (![...timers.pending.values()].some((t) => t.ms === 120_000)) await new Promise((r) => setTimeout(r, 1));
		timers.fire(120_000);
		expect(await second).toMatchObject({ code: "remote_timeout", message: expect.stringContaining("no answer within 120 s") as string });
	});

	it("streams an answer, each chunk counting as reached, and a stream gone quiet fails in one sentence", async () => {
		const { client, reached, timers } = setup((call) => {
			if (call.url.endsWith("/api/health")) return health();
			return streamResponse([bytes('{"type":"heartbeat"}\n'), bytes('{"type":"heartbeat"}\n')], { signal: call.init.signal ?? undefined });
		});
		const events = await collect(client.events());
		expect(events).toEqual([{ type: "heartbeat" }, { type: "heartbeat" }]);
		expect(reached.length).toBeGreaterThanOrEqual(3);

		const quiet = setup((call) => {
			if (call.url.endsWith("/api/health")) return health();
			const body = new ReadableStream<Uint8Array>({
				start(controller) {
					controller.enqueue(bytes('{"type":"heartbeat"}\n'));
					call.init.signal?.addEventListener("abort", () => controller.error(new DOMException("aborted", "AbortError")));
				},
			});
			return new Response(body);
		});
		const seen: unknown[] = [];
		const reading = (async () => {
			for await (const event of quiet.client.events()) seen.push(event);
		})().catch((e: unknown) => e);
		while (seen.length === 0) await new Promise((r) => setTimeout(r, 1));
		await new Promise((r) => setTimeout(r, 5));
		quiet.timers.fire(120_000);
		expect(await reading).toMatchObject({ code: "remote_timeout" });
		expect(timers.pending.size).toBe(0);
	});

	it("stopping a request is a stop, not a failure", async () => {
		const { client } = setup((call) =>
			call.url.endsWith("/api/health")
				? health()
				: new Promise<Response>((_resolve, reject) => call.init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")))),
		);
		const controller = new AbortController();
		const pending = client.search({ query: "kodi" }, controller.signal).catch((e: unknown) => e);
		await new Promise((r) => setTimeout(r, 5));
		controller.abort();
		expect(isAbort(await pending)).toBe(true);
	});
});

describe("pairDevice", () => {
	const link = { address: ADDRESS, fingerprint: FP, code: "ABCD-EFGH" };

	it("checks the certificate, posts the code and device name without a token, and returns the answer", async () => {
		const { calls, transport } = setup((call) =>
			call.url.endsWith("/api/health") ? health() : jsonResponse({ token: "new-token", device: "Pixel 8 (2)", fingerprint: FP }),
		);
		const answer = await pairDevice(transport.fetch, link, "Pixel 8");
		expect(answer).toEqual({ token: "new-token", device: "Pixel 8 (2)", fingerprint: FP });
		expect(paths(calls)).toEqual(["/api/health", "/api/pair"]);
		expect(calls[1]?.init.method).toBe("POST");
		expect(auth(calls[1])).toBeUndefined();
		expect(bodyOf(calls[1])).toEqual({ code: "ABCD-EFGH", device: "Pixel 8" });
	});

	it("passes the sidecar's refusal on as it wrote it", async () => {
		const message = "that pairing code is not one this sidecar issued; run `askvault pair` for a new one";
		const { transport } = setup((call) =>
			call.url.endsWith("/api/health") ? health() : jsonResponse({ error: { code: "pairing_refused", message } }, 403),
		);
		expect(await pairDevice(transport.fetch, link, "Pixel 8").catch((e: unknown) => e)).toMatchObject({ kind: "http", code: "pairing_refused", message });
	});

	it("refuses an answer that names another certificate", async () => {
		const { transport } = setup((call) => (call.url.endsWith("/api/health") ? health() : jsonResponse({ token: "t", device: "d", fingerprint: OTHER })));
		expect(await pairDevice(transport.fetch, link, "Pixel 8").catch((e: unknown) => e)).toBeInstanceOf(PairingError);
	});
});

describe("stored remote and last reached", () => {
	it.each([
		["a full record", { address: ADDRESS, fingerprint: FP.toLowerCase(), device: "Pixel 8", lastReached: 5 }, { address: ADDRESS, fingerprint: FP, device: "Pixel 8", lastReached: 5 }],
		["never reached", { address: ADDRESS, fingerprint: FP, device: "Pixel 8", lastReached: null }, { address: ADDRESS, fingerprint: FP, device: "Pixel 8", lastReached: null }],
		["a bad address", { address: "nope", fingerprint: FP, device: "Pixel 8", lastReached: 5 }, null],
		["no device", { address: ADDRESS, fingerprint: FP, lastReached: 5 }, null],
		["not an object", "x", null],
		["nothing", null, null],
	])("reads %s", (_name, raw, want) => {
		expect(parseStoredRemote(raw)).toEqual(want);
	});

	it.each([
		["never", null, "not reached yet"],
		["today", new Date(2026, 4, 3, 9, 5).getTime(), "last reached 09:05"],
		["another day", new Date(2026, 4, 1, 23, 59).getTime(), "last reached 2026-05-01 23:59"],
	])("says when: %s", (_name, at, want) => {
		expect(whenReached(at, new Date(2026, 4, 3, 12, 0).getTime())).toBe(want);
	});
});
