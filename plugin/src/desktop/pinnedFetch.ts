/** Desktop only: a streaming fetch over Node's https that pins a remote sidecar's certificate, with Node modules loaded lazily. */

import type { IncomingMessage } from "http";
import type { Duplex } from "stream";
import type { TLSSocket } from "tls";
import { type FetchLike, SidecarError } from "../sidecar/client";
import { mismatchMessage, REMOTE_CONNECT_TIMEOUT_MS, type RemoteTarget, sameFingerprint } from "../sidecar/remote";

export interface PinnedOptions {
	/** The TCP connection and TLS handshake together must finish within this (default REMOTE_CONNECT_TIMEOUT_MS). */
	connectTimeoutMs?: number;
}

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

const aborted = (): Error => new DOMException("The operation was aborted.", "AbortError");

/**
 * A fetch to `target` whose TLS socket is handed to the HTTP request only once the peer certificate's SHA-256 equals
 * the pinned fingerprint, so not one byte of a request (its token included) reaches any other server. The sidecar's
 * certificate is usually self-signed, so no CA is asked: the pin is the whole check. Otherwise it behaves like
 * `window.fetch`: the body streams, and aborting the signal closes the connection and rejects with an AbortError.
 */
export function pinnedFetch(target: RemoteTarget, options: PinnedOptions = {}): FetchLike {
	const connectTimeoutMs = options.connectTimeoutMs ?? REMOTE_CONNECT_TIMEOUT_MS;
	return (url, init) => request(target, url, init, connectTimeoutMs);
}

function requestHeaders(init: RequestInit, body: Uint8Array | null): Record<string, string> {
	const headers: Record<string, string> = {};
	new Headers(init.headers).forEach((value, name) => {
		headers[name] = value;
	});
	if (body !== null) headers["content-length"] = String(body.byteLength);
	return headers;
}

function requestBody(init: RequestInit): Uint8Array | null {
	if (init.body === undefined || init.body === null) return null;
	if (typeof init.body === "string") return new TextEncoder().encode(init.body);
	if (init.body instanceof Uint8Array) return init.body;
	throw new TypeError("The pinned fetch sends only string or byte bodies.");
}

function responseHeaders(res: IncomingMessage): Headers {
	const headers = new Headers();
	for (const [name, value] of Object.entries(res.headers)) {
		if (value === undefined) continue;
		try {
			headers.set(name, Array.isArray(value) ? value.join(", ") : value);
		} catch {
			// A header the Fetch API cannot hold (a byte it refuses) is one the client never reads.
		}
	}
	return headers;
}

async function request(target: RemoteTarget, url: string, init: RequestInit, connectTimeoutMs: number): Promise<Response> {
	const signal = init.signal ?? null;
	if (signal?.aborted) throw aborted();
	const parsed = new URL(url);
	if (parsed.protocol !== "https:") throw new TypeError(`The pinned fetch speaks only HTTPS, not ${parsed.protocol}`);
	const body = requestBody(init);
	const [https, tls, net] = await Promise.all([import("https"), import("tls"), import("net")]);
	if (signal?.aborted) throw aborted();
	const host = parsed.hostname.replace(/^\[|\]$/g, "");
	const port = parsed.port === "" ? 443 : Number(parsed.port);

	return new Promise<Response>((resolve, reject) => {
		let settled = false;
		let stream: ReadableStreamDefaultController<Uint8Array> | null = null;
		const finish = () => signal?.removeEventListener("abort", onAbort);
		const fail = (e: Error) => {
			finish();
			if (!settled) {
				settled = true;
				reject(e);
			} else {
				stream?.error(e);
				stream = null;
			}
		};
		const onAbort = () => {
			req.destroy();
			fail(aborted());
		};

		/** Connects, then hands over the socket only when the certificate is the pinned one (else the request fails, unsent). */
		const createConnection = (_options: unknown, oncreate: (err: Error | null, socket: Duplex) => void): undefined => {
			const socket: TLSSocket = tls.connect({
				host,
				port,
				// SNI carries names, never IP addresses.
				servername: net.isIP(host) === 0 ? host : undefined,
				rejectUnauthorized: false,
				ALPNProtocols: ["http/1.1"],
			});
			socket.setTimeout(connectTimeoutMs, () => {
				socket.destroy(new Error(`no answer within ${Math.round(connectTimeoutMs / 1000)} s`));
			});
			socket.once("error", (e: Error) => oncreate(e, socket));
			socket.once("secureConnect", () => {
				socket.setTimeout(0);
				const presented = socket.getPeerCertificate().fingerprint256 ?? "";
				if (sameFingerprint(presented, target.fingerprint)) {
					oncreate(null, socket);
					return;
				}
				socket.destroy();
				oncreate(new SidecarError("network", "certificate_mismatch", mismatchMessage(target.address, presented || "none")), socket);
			});
			return undefined;
		};

		const req = https.request({
			host,
			port,
			method: init.method ?? "GET",
			path: `${parsed.pathname}${parsed.search}`,
			headers: requestHeaders(init, body),
			createConnection,
		});
		req.on("error", fail);
		req.on("response", (res: IncomingMessage) => {
			const status = res.statusCode ?? 0;
			const headers = responseHeaders(res);
			if (NULL_BODY.has(status) || init.method === "HEAD") {
				res.resume();
				res.on("end", finish);
				settled = true;
				resolve(new Response(null, { status, statusText: res.statusMessage ?? "", headers }));
				return;
			}
			let ended = false;
			const readable = new ReadableStream<Uint8Array>({
				start(controller) {
					stream = controller;
					res.on("data", (chunk: Uint8Array) => {
						controller.enqueue(new Uint8Array(chunk));
						// Node keeps reading while the consumer is slow unless told to wait.
						if ((controller.desiredSize ?? 1) <= 0) res.pause();
					});
					res.on("end", () => {
						ended = true;
						finish();
						stream = null;
						controller.close();
					});
					res.on("error", fail);
					res.on("close", () => {
						if (!ended && stream !== null) fail(new Error("the connection closed before the answer was complete"));
					});
				},
				pull() {
					res.resume();
				},
				cancel() {
					stream = null;
					finish();
					req.destroy();
				},
			});
			settled = true;
			resolve(new Response(readable, { status, statusText: res.statusMessage ?? "", headers }));
		});
		signal?.addEventListener("abort", onAbort, { once: true });
		req.end(body ?? undefined);
	});
}
