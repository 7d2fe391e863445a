/** Desktop only: finds this vault's sidecar on disk (token and sidecar.json), with Node modules loaded lazily. */

import { type Discovered } from "../sidecar/endpoint";
import { parseSidecarInfo, sidecarUrl, vaultDataFolderParts } from "../sidecar/discovery";

/** The vault's data folder as the sidecar computes it (docs/api.md, "Discovery"). */
export async function vaultDataFolder(vaultPath: string, dataDir: string | null): Promise<string> {
	const [crypto, os, path, fs] = await Promise.all([
		import("crypto"),
		import("os"),
		import("path"),
		import("fs/promises"),
	]);
	// The sidecar hashes the resolved absolute path, so resolve symlinks the same way.
	const absolute = await fs.realpath(vaultPath).catch(() => path.resolve(vaultPath));
	const sha256Hex = crypto.createHash("sha256").update(absolute, "utf8").digest("hex");
	const parts = vaultDataFolderParts({
		vaultPath: absolute,
		sha256Hex,
		dataDir: dataDir ? path.resolve(dataDir) : null,
		platform: os.platform(),
		env: process.env,
		home: os.homedir(),
	});
	return path.join(...parts);
}

/** Reads the token and a live sidecar.json for the vault; missing files are simply not found. */
export async function discover(vaultPath: string, dataDir: string | null): Promise<Discovered> {
	const [fs, path] = await Promise.all([import("fs/promises"), import("path")]);
	const folder = await vaultDataFolder(vaultPath, dataDir);
	const read = (name: string) => fs.readFile(path.join(folder, name), "utf8").catch(() => null);
	const [token, sidecarJson] = await Promise.all([read("token"), read("sidecar.json")]);
	const info = sidecarJson === null ? null : parseSidecarInfo(sidecarJson);
	return {
		url: info !== null && isAlive(info.pid) ? sidecarUrl(info) : null,
		token: token !== null && token.trim() !== "" ? token.trim() : null,
	};
}

/** A pid is alive when signal 0 reaches it (EPERM: it exists but belongs to someone else). */
export function isAlive(pid: number): boolean {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return typeof e === "object" && e !== null && "code" in e && e.code === "EPERM";
	}
}
