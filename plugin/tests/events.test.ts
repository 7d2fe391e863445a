import { describe, expect, it } from "vitest";
import { describeConnection } from "../src/answer/status";
import { SidecarError } from "../src/sidecar/client";
import { applyServerEvent, backoffDelay, type ConnectionState, EventsWatcher, initialConnection } from "../src/sidecar/events";
import { parse } from "../src/sidecar/schema";
import { type ServerEvent, statusBody, type StatusBody } from "../src/sidecar/wire";
import { fixtureJson } from "./helpers";
import { ManualTimers } from "./manualTimers";

const status = (): StatusBody => parse(statusBody, fixtureJson("status.json"));

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("connection state", () => {
	it("folds status, index progress and model changes", () => {
		const s = status();
		let state = applyServerEvent(initialConnection, { type: "status", status: s });
		expect(state).toMatchObject({ connected: true, index: { state: s.index.state } });
		state = applyServerEvent(state, { type: "index", state: "indexing", done: 3, total: 10 });
		expect(describeConnection(state).text).toContain("indexing 3/10");
		state = applyServerEvent(state, {
			type: "models",
			models: {
				embed: { name: "nomic-embed-text", ok: false, problem: "embedding model missing — ollama pull nomic-embed-text" },
				chat: { name: "llama3.2:3b", ok: true, problem: null },
			},
		});
		const line = describeConnection(state);
		expect(line.text).toContain("embedding model missing — ollama pull nomic-embed-text");
		expect(line.level).toBe("warn");
		expect(applyServerEvent(state, { type: "heartbeat" })).toBe(state);
	});

	it.each([
		["never connected", initialConnection, "Ask Vault: disconnected", "down"],
		[
			"wrong token",
			{ ...initialConnection, error: new SidecarError("http", "unauthorized", "bad token", 401) },
			"Ask Vault: wrong token",
			"down",
		],
	] as [string, ConnectionState, string, string][])("describes %s", (_name, state, text, level) => {
		expect(describeConnection(state)).toMatchObject({ text, level });
	});

	it("describes an idle index without problems as ready", () => {
		const s = status();
		s.models.embed.problem = null;
		s.models.chat.problem = null;
		s.index.state = "idle";
		expect(describeConnection(applyServerEvent(initialConnection, { type: "status", status: s }))).toMatchObject({
			text: `Ask Vault: ready · ${s.embedder?.label}`,
			level: "ok",
		});
	});

	it.each([
		[0, 1000],
		[1, 2000],
		[4, 16000],
		[5, 30000],
		[50, 30000],
	])("backoff after %i failures is %i ms", (attempt, ms) => {
		expect(backoffDelay(attempt, { minDelayMs: 1000, maxDelayMs: 30000 })).toBe(ms);
	});
});

describe("EventsWatcher", () => {
	/** A source whose streams the test feeds: each connect gets a queue. */
	function scriptedSource() {
		const connects: { push: (e: ServerEvent) => void; end: (error?: Error) => void; signal: AbortSignal }[] = [];
		return {
			connects,
			source: {
				events(signal: AbortSignal): AsyncIterable<ServerEvent> {
					const queue: ServerEvent[] = [];
					let wake: (() => void) | null = null;
					let ended: { error?: Error } | null = null;
					connects.push({
						push: (e) => {
							queue.push(e);
							wake?.();
						},
						end: (error) => {
							ended = { error };
							wake?.();
						},
						signal,
					});
					signal.addEventListener("abort", () => {
						ended = { error: new SidecarError("aborted", "aborted", "Stopped.") };
						wake?.();
					});
					return {
						async *[Symbol.asyncIterator]() {
							for (;;) {
								while (queue.length > 0) yield queue.shift()!;
								if (ended) {
									if (ended.error) throw ended.error;
									return;
								}
								await new Promise<void>((r) => (wake = r));
								wake = null;
							}
						},
					};
				},
			},
		};
	}

	it("reconnects with growing backoff, resets after a status, and stops cleanly", async () => {
		const timers = new ManualTimers();
		const { source, connects } = scriptedSource();
		const states: ConnectionState[] = [];
		const watcher = new EventsWatcher(source, (s) => states.push(s), timers, {
			minDelayMs: 100,
			maxDelayMs: 1000,
			idleTimeoutMs: 60_000,
		});
		watcher.start();
		await tick();
		expect(connects).toHaveLength(1);
		connects[0]!.end(new SidecarError("network", "unreachable", "down"));
		await tick();
		expect(watcher.current.connected).toBe(false);
		expect(timers.delays()).toEqual([100]);
		expect(timers.fireShortest()).toBe(100);
		await tick();
		expect(connects).toHaveLength(2);
		connects[1]!.end(new SidecarError("network", "unreachable", "down"));
		await tick();
		expect(timers.delays()).toEqual([200]);
		timers.fireShortest();
		await tick();
		connects[2]!.push({ type: "status", status: status() });
		await tick();
		expect(watcher.current.connected).toBe(true);
		connects[2]!.end();
		await tick();
		expect(watcher.current).toMatchObject({ connected: false, error: { code: "stream_closed" } });
		expect(timers.delays().filter((d) => d < 60_000)).toEqual([100]);
		watcher.stop();
		expect(timers.pending.size).toBe(0);
		expect(states.map((s) => s.connected)).toEqual([false, false, true, false]);
	});

	it("treats a silent stream as dead after the idle timeout", async () => {
		const timers = new ManualTimers();
		const { source, connects } = scriptedSource();
		const watcher = new EventsWatcher(source, () => undefined, timers, { minDelayMs: 10, maxDelayMs: 10, idleTimeoutMs: 500 });
		watcher.start();
		await tick();
		expect(timers.delays()).toEqual([500]);
		timers.fireShortest();
		await tick();
		expect(connects[0]!.signal.aborted).toBe(true);
		expect(watcher.current.connected).toBe(false);
		expect(timers.delays()).toEqual([10]);
		watcher.stop();
	});

	it("applyStatus folds a fetched status in while connected, and is ignored while not", async () => {
		const timers = new ManualTimers();
		const { source, connects } = scriptedSource();
		const watcher = new EventsWatcher(source, () => undefined, timers);
		const later = status();
		later.vault.notes = 153;
		watcher.applyStatus(later);
		expect(watcher.current.status).toBeNull();
		watcher.start();
		await tick();
		connects[0]!.push({ type: "status", status: status() });
		await tick();
		watcher.applyStatus(later);
		expect(watcher.current.status?.vault.notes).toBe(153);
		expect(describeConnection(watcher.current).detail).toContain("153 notes");
		watcher.stop();
	});

	it("reconnectNow skips the backoff wait", async () => {
		const timers = new ManualTimers();
		const { source, connects } = scriptedSource();
		const watcher = new EventsWatcher(source, () => undefined, timers, { minDelayMs: 5000, maxDelayMs: 5000, idleTimeoutMs: 60_000 });
		watcher.start();
		await tick();
		connects[0]!.end(new SidecarError("network", "unreachable", "down"));
		await tick();
		watcher.reconnectNow();
		await tick();
		expect(connects).toHaveLength(2);
		watcher.stop();
	});

	it("after reconnectNow, a line the replaced stream still hands over is not folded in", async () => {
		const timers = new ManualTimers();
		const { source, connects } = scriptedSource();
		const states: ConnectionState[] = [];
		const watcher = new EventsWatcher(source, (st) => states.push(st), timers, { minDelayMs: 5000, maxDelayMs: 5000, idleTimeoutMs: 60_000 });
		watcher.start();
		await tick();
		connects[0]!.push({ type: "status", status: status() });
		await tick();
		// The URL changed: the old stream is aborted, but it had already read one more line.
		watcher.reconnectNow();
		connects[0]!.push({ type: "index", state: "indexing", done: 1, total: 99 });
		await tick();
		expect(states.some((st) => st.index?.total === 99)).toBe(false);
		timers.fireShortest();
		await tick();
		expect(connects).toHaveLength(2);
		watcher.stop();
	});
});
