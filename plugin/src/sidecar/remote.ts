/** Remote mode's transport as plain code: every request to a paired sidecar over HTTPS, its certificate checked, timed out when it goes quiet, and one sentence for each way it fails. */

import { type FetchLike, isAbort, joinUrl, SidecarClient, SidecarError } from "./client";
import type { Timers } from "./events";
import { checkPairedFingerprint, normaliseFingerprint, type PairBody, type PairingLink, parseAddress, shortFingerprint } from "./pairing";
import { isPlainObject } from "./schema";

/** Where a paired sidecar listens and the SHA-256 of the certificate it presented when this device paired. */
export interface RemoteTarget {
	address: string;
	fingerprint: string;
}

/** What this device keeps about its remote sidecar (in its own local storage: data.json syncs to other devices). */
export interface StoredRemote extends RemoteTarget {
	/** The name the sidecar stored for this device (what `askvault devices` lists and `askvault revoke` takes). */
	device: string;
	/** When the sidecar last answered, in ms since the epoch; null before it ever did. */
	lastReached: number | null;
}

/** Connecting (a TCP and TLS handshake, or the first /api/health from a phone) takes longer than this only when something is wrong. */
export const REMOTE_CONNECT_TIMEOUT_MS = 10_000;
/**
 * No byte for this long (headers or body) means the sidecar or the way to it is gone. Generous: one answer at a time
 * is generated, so a question may wait for another device's answer, and a cold chat model may take a minute to load.
 */
export const REMOTE_QUIET_TIMEOUT_MS = 120_000;

export function remoteBaseUrl(address: string): string {
	return `https://${address}`;
}

/** Reads what local storage held; null when it is not a remote connection this build can use. */
export function parseStoredRemote(raw: unknown): StoredRemote | null {
	if (!isPlainObject(raw) || typeof raw.device !== "string" || raw.device.trim() === "") return null;
	if (typeof raw.address !== "string" || typeof raw.fingerprint !== "string") return null;
	try {
		const address = parseAddress(raw.address);
		const fingerprint = normaliseFingerprint(raw.fingerprint);
		const at = raw.lastReached;
		const lastReached = typeof at === "number" && Number.isFinite(at) && at > 0 ? at : null;
		return { address, fingerprint, device: raw.device, lastReached };
	} catch {
		return null;
	}
}

const pad = (n: number): string => String(n).padStart(2, "0");

/** "last reached 10:42" (today), "last reached 2026-05-03 10:42" (another day), "not reached yet"; local time. */
export function whenReached(lastReached: number | null, now: number): string {
	if (lastReached === null) return "not reached yet";
	const then = new Date(lastReached);
	const time = `${pad(then.getHours())}:${pad(then.getMinutes())}`;
	if (then.toDateString() === new Date(now).toDateString()) return `last reached ${time}`;
	return `last reached ${then.getFullYear()}-${pad(then.getMonth() + 1)}-${pad(then.getDate())} ${time}`;
}

export function unreachableMessage(address: string, reached: string, reason: string): string {
	return `Ask Vault cannot reach the sidecar at ${address} (${reached}; ${reason}); check that it runs with \`askvault serve --remote\` and that this device is on its network.`;
}

/** A fetch that fails outright from a WebView: the platform says no more than that (no TLS detail, no network detail). */
export function untrustedMessage(address: string, reached: string): string {
	return `Ask Vault cannot reach the sidecar at ${address} (${reached}): this device could not make a trusted encrypted connection to it, because it does not trust the sidecar's certificate or cannot reach that address; trust the certificate on this device or use a \`tailscale cert\` one, check that the sidecar runs, and see docs/remote.md.`;
}

export function mismatchMessage(address: string, presented: string): string {
	let shown = presented;
	try {
		shown = shortFingerprint(normaliseFingerprint(presented));
	} catch {
		// Whatever it was, it is not the pinned fingerprint: show it as it came.
	}
	return `The sidecar at ${address} presented a certificate that is not the one you paired with (SHA-256 ${shown}); if you made a new one, pair again.`;
}

export function noFingerprintMessage(address: string): string {
	return `The sidecar at ${address} does not say which certificate it uses (no fingerprint in /api/health), so this device cannot tell it is the one you paired with; update askvault there.`;
}

/** True when two fingerprints name the same certificate (case and colons aside). */
export function sameFingerprint(a: string, b: string): boolean {
	try {
		return normaliseFingerprint(a) === normaliseFingerprint(b);
	} catch {
		return false;
	}
}

export interface RemoteOptions {
	/**
	 * Where the platform checks the certificate and hides it (a phone's WebView): before the first request, and again
	 * after any failure, /api/health (no token) must name the pinned fingerprint.
	 */
	checkHealth: boolean;
	timers: Timers;
	now: () => number;
	lastReached: () => number | null;
	/** Called whenever the sidecar answers: a response, or a chunk of a stream. */
	reached: () => void;
	connectTimeoutMs?: number;
	quietTimeoutMs?: number;
}

type Phase = "connect" | "body";

/** One timer that fires unless re-armed or stopped in time. */
class Countdown {
	private id: number | null = null;
	fired = false;

	constructor(
		private readonly timers: Timers,
		readonly ms: number,
		private readonly fire: () => void,
	) {}

	arm(): void {
		this.stop();
		this.id = this.timers.setTimeout(() => {
			this.id = null;
			this.fired = true;
			this.fire();
		}, this.ms);
	}

	stop(): void {
		if (this.id !== null) this.timers.clearTimeout(this.id);
		this.id = null;
	}
}

const stopped = (): SidecarError => new SidecarError("aborted", "aborted", "Stopped.");

/** Waits for `promise`, or rejects as stopped when `signal` aborts first (the promise may be shared with other requests). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
	if (!signal) return promise;
	if (signal.aborted) return Promise.reject(stopped());
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(stopped());
		signal.addEventListener("abort", onAbort, { once: true });
		promise.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve(value);
			},
			(e: unknown) => {
				signal.removeEventListener("abort", onAbort);
				reject(e instanceof Error ? e : new Error(String(e)));
			},
		);
	});
}

/** Requests to one paired sidecar through `base` (Node https pinned on desktop, the WebView's fetch on a phone). */
export class RemoteTransport {
	private verified: Promise<void> | null = null;
	readonly baseUrl: string;

	constructor(
		private readonly base: FetchLike,
		readonly target: RemoteTarget,
		private readonly options: RemoteOptions,
	) {
		this.baseUrl = remoteBaseUrl(target.address);
	}

	readonly fetch: FetchLike = async (url, init) => {
		if (this.options.checkHealth) {
			if (this.verified === null) {
				const attempt = this.checkHealth();
				this.verified = attempt;
				// A failed check is checked again by the next request, not remembered.
				attempt.catch(() => {
					if (this.verified === attempt) this.verified = null;
				});
			}
			await unlessAborted(this.verified, init.signal ?? undefined);
		}
		return this.send(url, init, this.options.quietTimeoutMs ?? REMOTE_QUIET_TIMEOUT_MS, true);
	};

	private async checkHealth(): Promise<void> {
		const { address, fingerprint } = this.target;
		const init: RequestInit = { method: "GET", headers: {}, cache: "no-store" };
		const res = await this.send(joinUrl(this.baseUrl, "/api/health"), init, this.options.connectTimeoutMs ?? REMOTE_CONNECT_TIMEOUT_MS, false);
		const body = (await res.json().catch(() => null)) as unknown;
		if (!res.ok) {
			const message = `The sidecar at ${address} answered /api/health with HTTP ${res.status}; is it an Ask Vault sidecar started with \`--remote\`?`;
			throw new SidecarError("http", `http_${res.status}`, message, res.status);
		}
		const presented = isPlainObject(body) && typeof body.fingerprint === "string" ? body.fingerprint : null;
		if (presented === null) throw new SidecarError("network", "no_fingerprint", noFingerprintMessage(address));
		if (!sameFingerprint(presented, fingerprint)) {
			throw new SidecarError("network", "certificate_mismatch", mismatchMessage(address, presented));
		}
		this.options.reached();
	}

	/** One request whose caller's abort still works, failing when no byte comes for `quietMs`; its body is watched the same way. */
	private async send(url: string, init: RequestInit, quietMs: number, counts: boolean): Promise<Response> {
		const outer = init.signal ?? undefined;
		if (outer?.aborted) throw stopped();
		const inner = new AbortController();
		const follow = () => inner.abort();
		outer?.addEventListener("abort", follow, { once: true });
		const quiet = new Countdown(this.options.timers, quietMs, () => inner.abort());
		const done = () => {
			quiet.stop();
			outer?.removeEventListener("abort", follow);
		};
		quiet.arm();
		let res: Response;
		try {
			res = await this.base(url, { ...init, signal: inner.signal });
		} catch (e) {
			done();
			throw this.failure(e, outer, quiet, "connect");
		}
		quiet.stop();
		if (counts) this.options.reached();
		if (res.body === null) {
			done();
			return res;
		}
		const body = this.watch(res.body, outer, quiet, done, counts);
		return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
	}

	/** The body as it comes, each chunk counting as reached; a read that waits `quiet` long fails, worded like a lost connection. */
	private watch(
		body: ReadableStream<Uint8Array>,
		outer: AbortSignal | undefined,
		quiet: Countdown,
		done: () => void,
		counts: boolean,
	): ReadableStream<Uint8Array> {
		const reader = body.getReader();
		const source: UnderlyingDefaultSource<Uint8Array> = {
			pull: async (controller) => {
				quiet.arm();
				try {
					const chunk = await reader.read();
					quiet.stop();
					if (chunk.done) {
						done();
						controller.close();
						return;
					}
					if (counts) this.options.reached();
					controller.enqueue(chunk.value);
				} catch (e) {
					done();
					controller.error(this.failure(e, outer, quiet, "body"));
				}
			},
			cancel: async (reason) => {
				done();
				await reader.cancel(reason);
			},
		};
		// Read only when the caller reads: the quiet timer then measures the sidecar's silence, not the caller's pace.
		return new ReadableStream<Uint8Array>(source, { highWaterMark: 0 });
	}

	private failure(e: unknown, outer: AbortSignal | undefined, quiet: Countdown, phase: Phase): unknown {
		if (outer?.aborted) return isAbort(e) ? e : stopped();
		// Whatever went wrong, the next request checks again that it reaches the paired sidecar.
		this.verified = null;
		const { address } = this.target;
		const reached = whenReached(this.options.lastReached(), this.options.now());
		if (quiet.fired) {
			const seconds = Math.round(quiet.ms / 1000);
			return new SidecarError("network", "remote_timeout", unreachableMessage(address, reached, `no answer within ${seconds} s`));
		}
		if (e instanceof SidecarError) return e;
		if (phase === "connect" && e instanceof TypeError) {
			return new SidecarError("network", "remote_untrusted", untrustedMessage(address, reached));
		}
		const reason = e instanceof Error ? e.message : String(e);
		return new SidecarError("network", "remote_unreachable", unreachableMessage(address, reached, reason));
	}
}

/**
 * Pairs this device: `POST /api/pair` with the code (no token) through `transport`, which reaches only the sidecar
 * holding the link's certificate, then checks that the answer names that certificate too.
 */
export async function pairDevice(transport: FetchLike, link: PairingLink, device: string, signal?: AbortSignal): Promise<PairBody> {
	const client = new SidecarClient(() => ({ baseUrl: remoteBaseUrl(link.address), token: null }), transport);
	const answer = await client.pair({ code: link.code, device }, signal);
	checkPairedFingerprint(link, answer);
	return answer;
}
