/** The conversation as plain data, and the reducer that folds user actions and stream events into it. */

import type { AskEvent, AskRequest, DoneEvent, HistoryMessage, RetrievalEvent } from "../sidecar/wire";

export type TurnStatus = "waiting" | "streaming" | "done" | "stopped" | "error";

export interface TurnError {
	code: string;
	message: string;
}

export interface Turn {
	id: number;
	/** What the user typed, shown in the conversation. */
	question: string;
	/** Where the question came from, e.g. "About Note title"; null for a plain question. */
	context: string | null;
	/** The exact request sent (history included), kept so "Retry" sends the same thing again. */
	request: AskRequest;
	status: TurnStatus;
	retrieval: RetrievalEvent | null;
	/**
	 * The answer so far: the raw streamed tokens, replaced at the end by `done.answer` (or `error.partial`), which
	 * the sidecar made inert. Never rendered as it is: the view renders it through `neutraliseAnswer`.
	 */
	text: string;
	done: DoneEvent | null;
	error: TurnError | null;
}

export interface Conversation {
	turns: Turn[];
	nextId: number;
}

export type Action =
	| { type: "ask"; question: string; context: string | null; request: AskRequest }
	| { type: "event"; turnId: number; event: AskEvent }
	| { type: "failed"; turnId: number; error: TurnError }
	| { type: "stopped"; turnId: number }
	| { type: "ended"; turnId: number }
	/** Asks the turn's question again; `force` ("Ask anyway") sends the notes even when the sidecar abstained. */
	| { type: "retry"; turnId: number; force?: boolean }
	| { type: "reset" };

export const emptyConversation: Conversation = { turns: [], nextId: 1 };

/** The most history the sidecar accepts. */
export const MAX_HISTORY = 20;

const TERMINAL: ReadonlySet<TurnStatus> = new Set(["done", "stopped", "error"]);

export function isRunning(turn: Turn): boolean {
	return !TERMINAL.has(turn.status);
}

export function reduce(state: Conversation, action: Action): Conversation {
	switch (action.type) {
		case "reset":
			return { turns: [], nextId: state.nextId };
		case "ask": {
			const turn: Turn = {
				id: state.nextId,
				question: action.question,
				context: action.context,
				request: action.request,
				status: "waiting",
				retrieval: null,
				text: "",
				done: null,
				error: null,
			};
			return { turns: [...state.turns, turn], nextId: state.nextId + 1 };
		}
		case "retry":
			return update(state, action.turnId, (t) => {
				if (isRunning(t)) return t;
				const request = action.force ? { ...t.request, force: true } : t.request;
				return { ...t, request, status: "waiting", retrieval: null, text: "", done: null, error: null };
			});
		case "event":
			return update(state, action.turnId, (t) => (isRunning(t) ? applyEvent(t, action.event) : t));
		case "failed":
			return update(state, action.turnId, (t) => (isRunning(t) ? { ...t, status: "error", error: action.error } : t));
		case "stopped":
			return update(state, action.turnId, (t) => (isRunning(t) ? { ...t, status: "stopped" } : t));
		case "ended":
			return update(state, action.turnId, (t) =>
				isRunning(t)
					? {
							...t,
							status: "error",
							error: { code: "stream_ended", message: "The answer stream ended before the answer was finished." },
						}
					: t,
			);
	}
}

function applyEvent(turn: Turn, event: AskEvent): Turn {
	switch (event.type) {
		case "retrieval":
			return { ...turn, status: "streaming", retrieval: event };
		case "token":
			return { ...turn, status: "streaming", text: turn.text + event.text };
		case "done":
			return { ...turn, status: "done", text: event.answer, done: event };
		case "error":
			return {
				...turn,
				status: "error",
				// The sidecar's partial is the inert form of what streamed; without one (nothing arrived, or an
				// older sidecar) the streamed text stays.
				text: event.partial !== "" ? event.partial : turn.text,
				error: { code: event.code, message: event.message },
			};
	}
}

function update(state: Conversation, turnId: number, fn: (turn: Turn) => Turn): Conversation {
	let changed = false;
	const turns = state.turns.map((t) => {
		if (t.id !== turnId) return t;
		const next = fn(t);
		changed = changed || next !== t;
		return next;
	});
	return changed ? { ...state, turns } : state;
}

/**
 * The history to send with a new question: earlier finished exchanges (and stopped ones that got some text),
 * oldest first, trimmed to the last `MAX_HISTORY` messages. Failed turns are left out: the model never
 * answered them.
 */
export function historyBefore(state: Conversation, turnId: number | null = null): HistoryMessage[] {
	const messages: HistoryMessage[] = [];
	for (const turn of state.turns) {
		if (turnId !== null && turn.id >= turnId) break;
		const answered = turn.status === "done" || (turn.status === "stopped" && turn.text.trim() !== "");
		if (!answered) continue;
		messages.push({ role: "user", content: turn.request.question });
		messages.push({ role: "assistant", content: turn.text });
	}
	return messages.slice(-MAX_HISTORY);
}

export function findTurn(state: Conversation, turnId: number): Turn | undefined {
	return state.turns.find((t) => t.id === turnId);
}
