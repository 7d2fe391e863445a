/** The plugin's settings as plain data: defaults, parsing of whatever `data.json` holds, and the sidecar's command line. */

import { isPlainObject } from "./sidecar/schema";

export interface AskVaultSettings {
	/** Where the sidecar listens when no discovery file says otherwise. */
	sidecarUrl: string;
	/** Desktop only: spawn `askvault serve` for this vault when the plugin loads. */
	autoStart: boolean;
	/** The `askvault` executable (a name on PATH or a full path). */
	command: string;
	/** Replaces the per-user data folder (`--data-dir`); empty for the default. */
	dataDir: string;
	/** `builtin`, an Ollama embedding model, or empty: the embedder the vault's index was built with, else the built-in one. */
	embedModel: string;
	chatModel: string;
	/** How many sources to retrieve per question (`k`, 1–50). */
	topK: number;
	/** Index the vault's PDFs (page by page) and canvases; off passes `--no-pdfs --no-canvases`. */
	indexDocuments: boolean;
	/** Folders beside the vault, one `LABEL=PATH` a line, each passed as `--source`. */
	folders: string;
}

export const DEFAULT_PORT = 27582;

/**
 * The default of earlier builds: 27123, the Obsidian Local REST API's port. Every saved settings file holds the whole
 * settings object, so that URL is read as "the default" (now DEFAULT_PORT) rather than as the user's choice, which
 * would keep starting the sidecar on the port it was moved off.
 */
const FORMER_DEFAULT_URL = "http://127.0.0.1:27123";

export const DEFAULT_SETTINGS: Readonly<AskVaultSettings> = {
	sidecarUrl: `http://127.0.0.1:${DEFAULT_PORT}`,
	autoStart: false,
	command: "askvault",
	dataDir: "",
	embedModel: "",
	chatModel: "llama3.2:3b",
	topK: 8,
	indexDocuments: true,
	folders: "",
};

export const TOP_K_MIN = 1;
export const TOP_K_MAX = 50;

/**
 * The most sources one answer's prompt holds (the sidecar's `PromptParams.max_sources`, backend/askvault/config/
 * slices.py). `/api/status` does not report it, so it is stated here: `k` above it ranks more chunks (the inspector
 * and "Why not…?" show them) without sending more of them to the model.
 */
export const PROMPT_MAX_SOURCES = 6;

/** What the "Sources per question" setting means for `k`: how many are ranked and how many reach the model. */
export function describeSourceCount(k: number, cap: number = PROMPT_MAX_SOURCES): string {
	const ranked = `Ranks ${k} chunk${k === 1 ? "" : "s"} for each question`;
	if (k <= cap) return `${ranked}; all of them can be sent to the model.`;
	return `${ranked}; the answer's prompt holds at most ${cap}, so the best ${cap} are sent to the model and the rest show in the inspector.`;
}

/**
 * Reads saved settings leniently: each known field that has the right type is kept, anything else falls back
 * to its default, and unknown fields are dropped (so a token saved by some older build never survives a save,
 * nor the `exclusions` of builds that had an "Excluded folders" setting: Obsidian's own Excluded files apply).
 */
export function parseSettings(raw: unknown): AskVaultSettings {
	const data = isPlainObject(raw) ? raw : {};
	const out: AskVaultSettings = { ...DEFAULT_SETTINGS };
	const url = typeof data.sidecarUrl === "string" ? normaliseUrl(data.sidecarUrl) : null;
	if (url !== null && url !== FORMER_DEFAULT_URL) out.sidecarUrl = url;
	if (typeof data.autoStart === "boolean") out.autoStart = data.autoStart;
	if (typeof data.indexDocuments === "boolean") out.indexDocuments = data.indexDocuments;
	if (typeof data.folders === "string") out.folders = data.folders;
	for (const key of ["command", "embedModel", "chatModel"] as const) {
		const value = data[key];
		if (typeof value === "string" && value.trim() !== "") out[key] = value.trim();
	}
	if (typeof data.dataDir === "string") out.dataDir = data.dataDir.trim();
	const k = parseTopK(data.topK);
	if (k !== null) out.topK = k;
	return out;
}

/** An `http(s)://host[:port]` URL without trailing slashes, or null when the text is not one. */
export function normaliseUrl(text: string): string | null {
	const trimmed = text.trim().replace(/\/+$/, "");
	if (!/^https?:\/\/[^\s/]+$/i.test(trimmed)) return null;
	try {
		const url = new URL(trimmed);
		return `${url.protocol}//${url.host}`;
	} catch {
		return null;
	}
}

export function parseTopK(value: unknown): number | null {
	const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
	if (typeof n !== "number" || !Number.isFinite(n)) return null;
	return Math.min(TOP_K_MAX, Math.max(TOP_K_MIN, Math.round(n)));
}

/** The port of a sidecar URL (the scheme's default when it names none). */
export function portOf(sidecarUrl: string): number {
	const url = new URL(sidecarUrl);
	if (url.port !== "") return Number(url.port);
	return url.protocol === "https:" ? 443 : 80;
}

/**
 * The arguments for `askvault serve` when the plugin starts the sidecar itself (spawned without a shell). No
 * `--exclude`: the sidecar reads Obsidian's Excluded files (`userIgnoreFilters` in the vault's app.json) itself.
 * No `--port` for the default one: when another program holds it the sidecar takes a free port and writes it to
 * the discovery file, which the plugin reads before the URL; a port the user chose is passed, and never swapped.
 */
export function serveArgs(settings: AskVaultSettings, vaultPath: string): string[] {
	const port = portOf(settings.sidecarUrl);
	const args = ["serve", "--vault", vaultPath];
	if (port !== DEFAULT_PORT) args.push("--port", String(port));
	// No --embed-model unless one is set: the sidecar then uses the embedder the index remembers (built in at first).
	if (settings.embedModel !== "") args.push("--embed-model", settings.embedModel);
	args.push("--chat-model", settings.chatModel);
	if (settings.dataDir !== "") args.push("--data-dir", settings.dataDir);
	if (!settings.indexDocuments) args.push("--no-pdfs", "--no-canvases");
	for (const folder of folderLines(settings.folders)) args.push("--source", folder);
	return args;
}

/** The non-empty lines of the "Folders beside the vault" setting, trimmed: each a `LABEL=PATH` the sidecar checks. */
export function folderLines(text: string): string[] {
	return text
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line !== "");
}
