// @vitest-environment jsdom
/** An answer the sidecar cut short says why under it (its token cap, a loop); one that ended by itself says nothing. */
import { describe, expect, it } from "vitest";
import { truncatedNotice } from "../src/answer/notice";
import { parseAskEvent } from "../src/sidecar/wire";
import { askLines } from "./helpers";
import { metrics, ndjson, routes, turnsOf, useChatView, view, waitFor } from "./viewSetup";

useChatView();

describe("truncatedNotice", () => {
	it.each([
		["no done event yet", null, null],
		["ended by itself", { truncated: false, done_reason: "stop" }, null],
		["no model was called", { truncated: false, done_reason: null }, null],
		["the token cap", { truncated: true, done_reason: "length" }, "The answer was cut off: the model reached its length limit."],
		["a loop the sidecar stopped", { truncated: true, done_reason: "repetition" }, "The answer was stopped: the model kept repeating itself."],
		["a reason this plugin does not know", { truncated: true, done_reason: "other" }, "The answer was cut off before the model finished."],
	])("%s", (_name, done, expected) => {
		expect(truncatedNotice(done)).toBe(expected);
	});
});

describe("the done event's stop reason", () => {
	it("an older sidecar's done event (no done_reason, no truncated) reads as not cut", () => {
		const done = parseAskEvent({ type: "done", answer: "a", citations: [], no_results: false, sanitized_answer: false, metrics });
		expect(done?.type === "done" && [done.done_reason, done.truncated]).toEqual([null, false]);
	});

	it.each([
		["length", true],
		["repetition", true],
		["stop", false],
	])("done_reason %s, truncated %s, is kept", (reason, truncated) => {
		const done = parseAskEvent({ type: "done", answer: "a", citations: [], no_results: false, sanitized_answer: false, done_reason: reason, truncated, metrics });
		expect(done?.type === "done" && [done.done_reason, done.truncated]).toEqual([reason, truncated]);
	});
});

describe("chat view", () => {
	const answer = (done_reason: string, truncated: boolean) => (call: { init: RequestInit }) =>
		ndjson(
			[
				askLines()[0],
				{ type: "token", text: "Port 5433 [1] and then the model" },
				{ type: "done", answer: "Port 5433 [1] and then the model", citations: [1], invalid_citations: [], no_results: false, sanitized_answer: false, neutralised: [], done_reason, truncated, metrics },
			],
			0,
			call.init.signal,
		);

	it("a cut answer says why under it, above the sources", async () => {
		routes["/api/ask"] = answer("length", true);
		const v = view();
		v.ask({ question: "which port?" });
		await waitFor(() => turnsOf(v)[0]?.status === "done", "done");
		const cut = await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-cut:not(.is-hidden)"), "the cut notice");
		expect(cut.textContent).toBe("The answer was cut off: the model reached its length limit.");
	});

	it("an answer that ended by itself has no such line", async () => {
		routes["/api/ask"] = answer("stop", false);
		const v = view();
		v.ask({ question: "which port?" });
		await waitFor(() => turnsOf(v)[0]?.status === "done", "done");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body")?.textContent?.includes("5433"), "the answer");
		const cut = v.contentEl.querySelector(".ask-vault-answer-cut");
		expect(cut?.classList.contains("is-hidden")).toBe(true);
		expect(cut?.textContent).toBe("");
	});
});
