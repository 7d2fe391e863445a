/** Typing the sidecar URL or token: one reconnect once typing pauses, at once when the field is left. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Debounced, SETTLE_MS } from "../src/plugin/debounce";
import type { Timers } from "../src/sidecar/events";

const timers: Timers = { setTimeout: (fn, ms) => Number(setTimeout(fn, ms)), clearTimeout: (id) => clearTimeout(id) };

describe("Debounced", () => {
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it("applies only the last value, once, after typing pauses", () => {
		const applied: string[] = [];
		const input = new Debounced<string>((v) => applied.push(v), timers);
		for (const value of ["http://1", "http://12", "http://127.0.0.1:2", "http://127.0.0.1:28000"]) {
			input.push(value);
			vi.advanceTimersByTime(SETTLE_MS - 100);
		}
		expect(applied).toEqual([]);
		vi.advanceTimersByTime(100);
		expect(applied).toEqual(["http://127.0.0.1:28000"]);
		vi.advanceTimersByTime(10 * SETTLE_MS);
		expect(applied).toEqual(["http://127.0.0.1:28000"]);
	});

	it("flush (blur, tab closed) applies a waiting value at once and cancels its timer", () => {
		const applied: string[] = [];
		const input = new Debounced<string>((v) => applied.push(v), timers);
		input.push("tok");
		input.flush();
		expect(applied).toEqual(["tok"]);
		vi.advanceTimersByTime(SETTLE_MS);
		input.flush();
		expect(applied).toEqual(["tok"]);
	});

	it.each([
		["a pause", 300, 300],
		["the default", undefined, SETTLE_MS],
	])("waits %s (%s ms)", (_name, delay, expected) => {
		const applied: number[] = [];
		const input = new Debounced<number>((v) => applied.push(v), timers, delay);
		input.push(1);
		vi.advanceTimersByTime(expected - 1);
		expect(applied).toEqual([]);
		vi.advanceTimersByTime(1);
		expect(applied).toEqual([1]);
	});

	it("waits between 500 and 800 ms by default", () => {
		expect(SETTLE_MS).toBeGreaterThanOrEqual(500);
		expect(SETTLE_MS).toBeLessThanOrEqual(800);
	});
});
