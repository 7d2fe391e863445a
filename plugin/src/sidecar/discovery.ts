/** The discovery rule of docs/api.md: where a vault's token and `sidecar.json` live, computed without any I/O. */

import { isPlainObject } from "./schema";

export interface SidecarInfo {
	host: string;
	port: number;
	pid: number;
	version: string;
	api_version: number;
}

/**
 * The vault folder's name with runs of characters outside `[A-Za-z0-9._-]` replaced by `-`, then leading and
 * trailing dashes dropped (`vault` if nothing is left), exactly as the sidecar's `vault_data_dir` does.
 */
export function vaultSlug(folderName: string): string {
	const slug = folderName.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");
	return slug === "" ? "vault" : slug;
}

/** The last segment of an absolute path, for either separator, ignoring trailing separators. */
export function baseName(absPath: string): string {
	const parts = absPath.split(/[\\/]+/).filter((p) => p !== "");
	return parts[parts.length - 1] ?? "";
}

export type Env = Record<string, string | undefined>;

/** The per-user data dir the sidecar uses on each OS (`platform` as Node's `os.platform()` names it). */
export function userDataDirParts(platform: string, env: Env, home: string): string[] {
	if (platform === "win32") return [env.LOCALAPPDATA || `${home}\\AppData\\Local`];
	if (platform === "darwin") return [home, "Library", "Application Support"];
	const xdg = env.XDG_DATA_HOME;
	return xdg && xdg.trim() !== "" ? [xdg] : [home, ".local", "share"];
}

/**
 * `<user data dir>/askvault/vaults/<slug>-<first 12 hex of SHA-256(vault path)>`, as path segments for the
 * caller to join with its platform's separator. `dataDir` (the `--data-dir` option) replaces
 * `<user data dir>/askvault`, as the sidecar implements it: `<data-dir>/vaults/<slug>-<hash>`.
 */
export function vaultDataFolderParts(opts: {
	vaultPath: string;
	sha256Hex: string;
	dataDir: string | null;
	platform: string;
	env: Env;
	home: string;
}): string[] {
	const root = opts.dataDir ? [opts.dataDir] : [...userDataDirParts(opts.platform, opts.env, opts.home), "askvault"];
	const folder = `${vaultSlug(baseName(opts.vaultPath))}-${opts.sha256Hex.slice(0, 12).toLowerCase()}`;
	return [...root, "vaults", folder];
}

/** Reads `sidecar.json`; null when it is missing a field or is not JSON (a half-written file is not an error). */
export function parseSidecarInfo(text: string): SidecarInfo | null {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return null;
	}
	if (!isPlainObject(value)) return null;
	const { host, port, pid, version, api_version } = value;
	if (typeof host !== "string" || typeof port !== "number" || typeof pid !== "number") return null;
	return {
		host,
		port,
		pid,
		version: typeof version === "string" ? version : "",
		api_version: typeof api_version === "number" ? api_version : 0,
	};
}

/** The base URL for a discovered sidecar (IPv6 hosts get brackets). */
export function sidecarUrl(info: SidecarInfo): string {
	const host = info.host.includes(":") && !info.host.startsWith("[") ? `[${info.host}]` : info.host;
	return `http://${host}:${info.port}`;
}
