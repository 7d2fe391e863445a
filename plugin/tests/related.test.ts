import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
	EMPTY_TEXT,
	failedState,
	formatRelatedScore,
	LOADING_TEXT,
	NO_NOTE_TEXT,
	passageTrail,
	RELATED_DEBOUNCE_MS,
	RelatedFeed,
	relatedMessage,
	type RelatedState,
	scoreLabel,
} from "../src/answer/related";
import { SidecarError } from "../src/sidecar/client";
import { parse } from "../src/sidecar/schema";
import { type RelatedBody, relatedBody } from "../src/sidecar/wire";
import { fixtureJson } from "./helpers";

const golden = (): RelatedBody => parse(relatedBody, fixtureJson("related.json"));
const bodyFor = (path: string): RelatedBody => ({ ...golden(), path });

describe("related notes wording", () => {
	const unreachable = new SidecarError("network", "unreachable", 'Cannot reach the Ask Vault sidecar at http://127.0.0.1:27582 (Failed to fetch). Is "askvault serve" running?');
	it.each<[string, RelatedState, string]>([
		["no active note", { kind: "no-note" }, NO_NOTE_TEXT],
		["loading", { kind: "loading", path: "a.md" }, LOADING_TEXT],
		["no related notes", { kind: "ready", path: "a.md", body: { ...golden(), results: [] } }, EMPTY_TEXT],
		["dense results", { kind: "ready", path: "a.md", body: golden() }, "Closest in meaning"],
		[
			"keyword results",
			{ kind: "ready", path: "a.md", body: { ...golden(), method: "keyword" } },
			"Sharing the most distinctive words (semantic search is not available)",
		],
		["an unreachable sidecar, in the connection's own words", failedState("a.md", unreachable)!, unreachable.message],
		[
			"the sidecar's error as written",
			failedState("a.md", new SidecarError("http", "not_found", "no indexed note at this path", 404))!,
			"no indexed note at this path",
		],
	])("%s", (_name, state, text) => {
		expect(relatedMessage(state)).toBe(text);
	});

	it.each<[string, unknown, RelatedState | null]>([
		["network", new SidecarError("network", "unreachable", "gone"), { kind: "unreachable", path: "a.md", message: "gone" }],
		["http", new SidecarError("http", "not_found", "nope", 404), { kind: "error", path: "a.md", message: "nope", code: "not_found" }],
		["protocol", new SidecarError("protocol", "bad_shape", "odd"), { kind: "error", path: "a.md", message: "odd", code: "bad_shape" }],
		["aborted: a newer note took over", new SidecarError("aborted", "aborted", "Stopped."), null],
		["a DOM abort", new DOMException("The operation was aborted.", "AbortError"), null],
		["anything else", new Error("boom"), { kind: "error", path: "a.md", message: "boom", code: "internal" }],
	])("a failure (%s) leaves the right state", (_name, error, expected) => {
		expect(failedState("a.md", error)).toEqual(expected);
	});

	it.each([
		[0.812, "0.812"],
		[-0.05, "-0.050"],
		[1, "1.000"],
	])("score %d reads %s", (score, text) => {
		expect(formatRelatedScore(score)).toBe(text);
	});

	it("labels scores by method, and gives each passage's trail", () => {
		expect([scoreLabel("dense"), scoreLabel("keyword")]).toEqual(["Similarity", "Keyword score"]);
		expect(golden().results.map(passageTrail)).toEqual(["Journal/2026-11-02.md › 2026-11-02", "Homelab/Postgres.md › Postgres › Connection"]);
	});
});

interface Pending {
	path: string;
	signal: AbortSignal;
	resolve: (body: RelatedBody) => void;
	reject: (e: unknown) => void;
}

describe("the related-notes feed", () => {
	let asked: Pending[];
	let states: RelatedState[];
	let feed: RelatedFeed;

	beforeEach(() => {
		vi.useFakeTimers();
		asked = [];
		states = [];
		feed = new RelatedFeed({
			fetch: (path, signal) =>
				new Promise<RelatedBody>((resolve, reject) => {
					asked.push({ path, signal, resolve, reject });
					signal.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")));
				}),
			setTimeout: (fn, ms) => setTimeout(fn, ms) as unknown as number,
			clearTimeout: (id) => clearTimeout(id),
			onState: (state) => states.push(state),
		});
	});

	afterEach(() => {
		feed.dispose();
		vi.useRealTimers();
	});

	const kinds = () => states.map((s) => (s.kind === "no-note" ? s.kind : `${s.kind}:${s.path}`));

	it("shows loading at once and asks once the note has stayed for the debounce", async () => {
		feed.setNote("a.md");
		expect(kinds()).toEqual(["loading:a.md"]);
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS - 1);
		expect(asked).toHaveLength(0);
		await vi.advanceTimersByTimeAsync(1);
		expect(asked.map((a) => a.path)).toEqual(["a.md"]);
		asked[0]!.resolve(bodyFor("a.md"));
		await vi.advanceTimersByTimeAsync(0);
		expect(kinds()).toEqual(["loading:a.md", "ready:a.md"]);
		expect(feed.state).toEqual({ kind: "ready", path: "a.md", body: bodyFor("a.md") });
	});

	it("switching notes quickly asks only for the note that stayed", async () => {
		feed.setNote("a.md");
		await vi.advanceTimersByTimeAsync(100);
		feed.setNote("b.md");
		await vi.advanceTimersByTimeAsync(100);
		feed.setNote("c.md");
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		expect(asked.map((a) => a.path)).toEqual(["c.md"]);
	});

	it("a note changed while a request is in flight aborts it, and its late answer is dropped", async () => {
		feed.setNote("a.md");
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		const first = asked[0]!;
		feed.setNote("b.md");
		expect(first.signal.aborted).toBe(true);
		first.resolve(bodyFor("a.md")); // too late: the promise already rejected on abort
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		asked[1]!.resolve(bodyFor("b.md"));
		await vi.advanceTimersByTimeAsync(0);
		expect(kinds()).toEqual(["loading:a.md", "loading:b.md", "ready:b.md"]);
	});

	it("an answer that ignores the abort still never shows for the wrong note", async () => {
		const late: ((body: RelatedBody) => void)[] = [];
		const stubborn = new RelatedFeed({
			fetch: () => new Promise<RelatedBody>((resolve) => late.push(resolve)),
			setTimeout: (fn, ms) => setTimeout(fn, ms) as unknown as number,
			clearTimeout: (id) => clearTimeout(id),
			onState: (state) => states.push(state),
		});
		stubborn.setNote("a.md");
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		stubborn.setNote("b.md");
		late[0]!(bodyFor("a.md"));
		await vi.advanceTimersByTimeAsync(0);
		expect(stubborn.state).toEqual({ kind: "loading", path: "b.md" });
		stubborn.dispose();
	});

	it("the same note again asks nothing; after a failure it asks again", async () => {
		feed.setNote("a.md");
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		asked[0]!.reject(new SidecarError("network", "unreachable", "gone"));
		await vi.advanceTimersByTimeAsync(0);
		expect(feed.state.kind).toBe("unreachable");
		feed.setNote("a.md");
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		asked[1]!.resolve(bodyFor("a.md"));
		await vi.advanceTimersByTimeAsync(0);
		feed.setNote("a.md");
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		expect(asked).toHaveLength(2);
		expect(kinds()).toEqual(["loading:a.md", "unreachable:a.md", "loading:a.md", "ready:a.md"]);
	});

	it("no note clears at once and cancels what was coming; refresh asks again for the current note", async () => {
		feed.setNote("a.md");
		feed.setNote(null);
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		expect(asked).toHaveLength(0);
		expect(feed.state).toEqual({ kind: "no-note" });
		feed.refresh();
		expect(asked).toHaveLength(0);
		feed.setNote("b.md");
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		asked[0]!.resolve(bodyFor("b.md"));
		await vi.advanceTimersByTimeAsync(0);
		feed.refresh();
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		expect(asked.map((a) => a.path)).toEqual(["b.md", "b.md"]);
	});

	it("after dispose nothing more is asked or shown", async () => {
		feed.setNote("a.md");
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		feed.dispose();
		expect(asked[0]!.signal.aborted).toBe(true);
		const before = states.length;
		await vi.advanceTimersByTimeAsync(RELATED_DEBOUNCE_MS);
		expect(states).toHaveLength(before);
	});
});
