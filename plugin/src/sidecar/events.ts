/** Follows `GET /api/events` for the status bar: folds events into a connection state, reconnecting with backoff. */

import { isAbort, SidecarError } from "./client";
import type { ModelsStatus, ServerEvent, StatusBody } from "./wire";

export interface IndexProgress {
	state: "idle" | "indexing";
	done: number;
	total: number;
}

export interface ConnectionState {
	connected: boolean;
	status: StatusBody | null;
	index: IndexProgress | null;
	models: ModelsStatus | null;
	/** Why the last connection failed (null while connected or before the first try). */
	error: SidecarError | null;
}

export const initialConnection: ConnectionState = { connected: false, status: null, index: null, models: null, error: null };

export function applyServerEvent(state: ConnectionState, event: ServerEvent): ConnectionState {
	switch (event.type) {
		case "status": {
			const { index, models } = event.status;
			return {
				connected: true,
				status: event.status,
				index: { state: index.state, done: index.done, total: index.total },
				models,
				error: null,
			};
		}
		case "index":
			return { ...state, connected: true, index: { state: event.state, done: event.done, total: event.total } };
		case "models":
			return { ...state, connected: true, models: event.models };
		case "heartbeat":
			return state.connected ? state : { ...state, connected: true };
	}
}

export function disconnected(state: ConnectionState, error: SidecarError): ConnectionState {
	return { ...state, connected: false, error };
}

export interface Timers {
	setTimeout(fn: () => void, ms: number): number;
	clearTimeout(id: number): void;
}

export interface WatcherOptions {
	minDelayMs: number;
	maxDelayMs: number;
	/** No line (not even a heartbeat, sent every 15 s) for this long means the stream is dead. */
	idleTimeoutMs: number;
}

export const defaultWatcherOptions: WatcherOptions = { minDelayMs: 1000, maxDelayMs: 30_000, idleTimeoutMs: 45_000 };

/** Backoff before reconnect attempt number `attempt` (0-based): doubling from min, capped at max. */
export function backoffDelay(attempt: number, options: Pick<WatcherOptions, "minDelayMs" | "maxDelayMs">): number {
	return Math.min(options.maxDelayMs, options.minDelayMs * 2 ** Math.min(attempt, 20));
}

export interface EventSource {
	events(signal: AbortSignal): AsyncIterable<ServerEvent>;
}

export class EventsWatcher {
	private state: ConnectionState = initialConnection;
	private attempt = 0;
	private controller: AbortController | null = null;
	private retryTimer: number | null = null;
	private idleTimer: number | null = null;
	private running = false;
	private immediate = false;

	constructor(
		private readonly source: EventSource,
		private readonly onChange: (state: ConnectionState) => void,
		private readonly timers: Timers,
		private readonly options: WatcherOptions = defaultWatcherOptions,
	) {}

	get current(): ConnectionState {
		return this.state;
	}

	start(): void {
		if (this.running) return;
		this.running = true;
		void this.loop();
	}

	stop(): void {
		this.running = false;
		this.clearRetry();
		this.clearIdle();
		this.controller?.abort();
		this.controller = null;
	}

	/** Folds in a status fetched outside the stream (after an index run: the stream's progress events carry no counts). */
	applyStatus(status: StatusBody): void {
		if (this.state.connected) this.set(applyServerEvent(this.state, { type: "status", status }));
	}

	/** Drops any wait and connects at once (after settings change, or when the user asks). */
	reconnectNow(): void {
		if (!this.running) return this.start();
		this.attempt = 0;
		if (this.retryTimer !== null) {
			this.clearRetry();
			void this.loop();
		} else if (this.controller) {
			this.immediate = true;
			this.controller.abort();
		}
	}

	private async loop(): Promise<void> {
		const controller = new AbortController();
		this.controller = controller;
		this.armIdle(controller);
		let failure: SidecarError;
		try {
			for await (const event of this.source.events(controller.signal)) {
				// A stream replaced by a newer attempt (the URL or token changed) may still hand over a line it had
				// read; what it says is about the old endpoint.
				if (controller.signal.aborted) break;
				this.armIdle(controller);
				if (event.type === "status") this.attempt = 0;
				this.set(applyServerEvent(this.state, event));
			}
			failure = new SidecarError("network", "stream_closed", "The sidecar closed the event stream.");
		} catch (e) {
			failure =
				e instanceof SidecarError && !isAbort(e)
					? e
					: new SidecarError("network", "stream_closed", "The event stream was interrupted.");
		}
		this.clearIdle();
		if (this.controller === controller) this.controller = null;
		if (!this.running) return;
		this.set(disconnected(this.state, failure));
		const delay = this.immediate ? 0 : backoffDelay(this.attempt, this.options);
		this.immediate = false;
		this.attempt += 1;
		this.retryTimer = this.timers.setTimeout(() => {
			this.retryTimer = null;
			if (this.running) void this.loop();
		}, delay);
	}

	private set(next: ConnectionState): void {
		if (next === this.state) return;
		this.state = next;
		this.onChange(next);
	}

	private armIdle(controller: AbortController): void {
		this.clearIdle();
		this.idleTimer = this.timers.setTimeout(() => controller.abort(), this.options.idleTimeoutMs);
	}

	private clearIdle(): void {
		if (this.idleTimer !== null) this.timers.clearTimeout(this.idleTimer);
		this.idleTimer = null;
	}

	private clearRetry(): void {
		if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
		this.retryTimer = null;
	}
}
