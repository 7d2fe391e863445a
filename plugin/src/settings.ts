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
	embedModel: string;
	chatModel: string;
	/** How many sources to retrieve per question (`k`, 1–50). */
	topK: number;
	/** Vault-relative folders or glob patterns the sidecar must not index (`--exclude`). */
	exclusions: string[];
}

export const DEFAULT_PORT = 27123;

export const DEFAULT_SETTINGS: Readonly<AskVaultSettings> = {
	sidecarUrl: `http://127.0.0.1:${DEFAULT_PORT}`,
	autoStart: false,
	command: "askvault",
	dataDir: "",
	embedModel: "nomic-embed-text",
	chatModel: "llama3.2:3b",
	topK: 8,
	exclusions: [],
};

export const TOP_K_MIN = 1;
export const TOP_K_MAX = 50;

/**
 * Reads saved settings leniently: each known field that has the right type is kept, anything else falls back
 * to its default, and unknown fields are dropped (so a token saved by some older build never survives a save).
 */
export function parseSettings(raw: unknown): AskVaultSettings {
	const data = isPlainObject(raw) ? raw : {};
	const out: AskVaultSettings = { ...DEFAULT_SETTINGS, exclusions: [] };
	const url = typeof data.sidecarUrl === "string" ? normaliseUrl(data.sidecarUrl) : null;
	if (url !== null) out.sidecarUrl = url;
	if (typeof data.autoStart === "boolean") out.autoStart = data.autoStart;
	for (const key of ["command", "embedModel", "chatModel"] as const) {
		const value = data[key];
		if (typeof value === "string" && value.trim() !== "") out[key] = value.trim();
	}
	if (typeof data.dataDir === "string") out.dataDir = data.dataDir.trim();
	const k = parseTopK(data.topK);
	if (k !== null) out.topK = k;
	out.exclusions = parseExclusions(data.exclusions);
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

/** One exclusion per line (or an array of them), trimmed, blanks and duplicates dropped. */
export function parseExclusions(value: unknown): string[] {
	const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(/\r?\n/) : [];
	const seen = new Set<string>();
	for (const item of items) {
		if (typeof item !== "string") continue;
		const clean = item.trim();
		if (clean !== "") seen.add(clean);
	}
	return [...seen];
}

/** The port of a sidecar URL (the scheme's default when it names none). */
export function portOf(sidecarUrl: string): number {
	const url = new URL(sidecarUrl);
	if (url.port !== "") return Number(url.port);
	return url.protocol === "https:" ? 443 : 80;
}

/** The arguments for `askvault serve` when the plugin starts the sidecar itself (spawned without a shell). */
export function serveArgs(settings: AskVaultSettings, vaultPath: string): string[] {
	const args = ["serve", "--vault", vaultPath, "--port", String(portOf(settings.sidecarUrl))];
	args.push("--embed-model", settings.embedModel, "--chat-model", settings.chatModel);
	for (const pattern of settings.exclusions) args.push("--exclude", pattern);
	if (settings.dataDir !== "") args.push("--data-dir", settings.dataDir);
	return args;
}
