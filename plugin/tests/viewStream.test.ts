// @vitest-environment jsdom
/** The chat view when a stream is cut short: Stop keeps the partial answer; sidecar errors show as written, with Retry. */
import { describe, expect, it } from "vitest";
import { askLines, jsonResponse } from "./helpers";
import { calls, longAnswer, ndjson, routes, turnsOf, useChatView, view, waitFor, watchRenders } from "./viewSetup";

useChatView();

describe("chat view", () => {
	it("re-renders while streaming, and Stop keeps the partial answer", async () => {
		routes["/api/ask"] = (call) =>
			ndjson([askLines()[0], ...longAnswer(60), { type: "done", answer: "never", citations: [], no_results: false, metrics: {} }], 15, call.init.signal);
		const v = view();
		const renders = watchRenders(v.contentEl);
		v.ask({ question: "q" });
		await waitFor(() => renders.count() >= 3, "several renders");
		renders.stop();
		const button = v.contentEl.querySelector<HTMLButtonElement>(".ask-vault-send")!;
		expect(button.textContent).toBe("Stop");
		button.click();
		const turn = await waitFor(() => turnsOf(v)[0]?.status === "stopped" && turnsOf(v)[0], "stopped");
		expect(turn.text.startsWith("word0 word1 word2")).toBe(true);
		expect(turn.text).not.toContain("word59");
		expect(calls.find((c) => c.url.endsWith("/api/ask"))?.init.signal?.aborted).toBe(true);
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body")?.textContent?.includes("word2"), "partial shown");
		expect(v.contentEl.querySelector(".ask-vault-answer-status")?.textContent).toBe("Stopped.");
		expect(button.textContent).toBe("Send");
	});

	it("shows a sidecar error as written, and Retry sends the same request again", async () => {
		routes["/api/ask"] = () => jsonResponse({ error: { code: "model_missing", message: "chat model missing — ollama pull llama3.2:3b" } }, 424);
		const v = view();
		v.ask({ question: "q" });
		const box = await waitFor(() => v.contentEl.querySelector(".ask-vault-error"), "error box");
		expect(box.textContent).toContain("chat model missing — ollama pull llama3.2:3b");
		expect(box.textContent).toContain("model_missing");
		routes["/api/ask"] = (call) => ndjson(askLines(), 0, call.init.signal);
		box.querySelector<HTMLButtonElement>(".ask-vault-retry")!.click();
		await waitFor(() => turnsOf(v)[0]?.status === "done", "retried answer");
		const asks = calls.filter((c) => c.url.endsWith("/api/ask"));
		expect(asks).toHaveLength(2);
		expect(asks[1]?.init.body).toBe(asks[0]?.init.body);
		expect(v.contentEl.querySelector(".ask-vault-error")).toBeNull();
	});

	it("an unreachable sidecar gives a readable error with Retry", async () => {
		routes["/api/ask"] = () => {
			throw new TypeError("Failed to fetch");
		};
		const v = view();
		v.ask({ question: "q" });
		const box = await waitFor(() => v.contentEl.querySelector(".ask-vault-error"), "error box");
		expect(box.textContent).toContain("Cannot reach the Ask Vault sidecar at http://127.0.0.1:27999");
		expect(box.querySelector(".ask-vault-retry")).not.toBeNull();
	});

	it("an error event mid-stream keeps the partial text", async () => {
		routes["/api/ask"] = (call) =>
			ndjson(
				[askLines()[0], { type: "token", text: "Postgres " }, { type: "error", code: "ollama_stream_broken", message: "The model stopped mid-answer.", partial: "Postgres " }],
				0,
				call.init.signal,
			);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => v.contentEl.querySelector(".ask-vault-error")?.textContent?.includes("The model stopped mid-answer."), "error");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body")?.textContent?.includes("Postgres"), "partial");
	});
});
