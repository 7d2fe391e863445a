import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseName, parseSidecarInfo, sidecarUrl, userDataDirParts, vaultDataFolderParts, vaultSlug } from "../src/sidecar/discovery";
import { resolveEndpoint } from "../src/sidecar/endpoint";

describe("discovery paths", () => {
	it.each([
		["sample-vault", "sample-vault"],
		["My Vault", "My-Vault"],
		["Notes (2024) — perso", "Notes-2024-perso"],
		["a..b_c-d", "a..b_c-d"],
		["日本語ノート", "vault"],
		["--Notes!--", "Notes"],
		[" Notes ", "Notes"],
	])("vaultSlug(%j) = %j", (name, slug) => {
		expect(vaultSlug(name)).toBe(slug);
	});

	it.each([
		["/home/me/My Vault", "My Vault"],
		["/home/me/My Vault/", "My Vault"],
		["C:\\Users\\me\\Vault", "Vault"],
	])("baseName(%j) = %j", (path, name) => {
		expect(baseName(path)).toBe(name);
	});

	it.each([
		["linux", { XDG_DATA_HOME: "/xdg" }, ["/xdg"]],
		["linux", {}, ["/home/me", ".local", "share"]],
		["linux", { XDG_DATA_HOME: " " }, ["/home/me", ".local", "share"]],
		["darwin", {}, ["/home/me", "Library", "Application Support"]],
		["win32", { LOCALAPPDATA: "C:\\Users\\me\\AppData\\Local" }, ["C:\\Users\\me\\AppData\\Local"]],
	])("user data dir on %s %j", (platform, env, parts) => {
		expect(userDataDirParts(platform, env, "/home/me")).toEqual(parts);
	});

	it("names the folder <slug>-<first 12 hex of SHA-256 of the vault path>", () => {
		const vaultPath = "/home/me/My Vault";
		const sha = createHash("sha256").update(vaultPath, "utf8").digest("hex");
		expect(
			vaultDataFolderParts({ vaultPath, sha256Hex: sha, dataDir: null, platform: "linux", env: {}, home: "/home/me" }),
		).toEqual(["/home/me", ".local", "share", "askvault", "vaults", `My-Vault-${sha.slice(0, 12)}`]);
		expect(
			vaultDataFolderParts({ vaultPath, sha256Hex: sha, dataDir: "/tmp/d", platform: "linux", env: {}, home: "/home/me" }),
		).toEqual(["/tmp/d", "vaults", `My-Vault-${sha.slice(0, 12)}`]);
	});
});

describe("sidecar.json", () => {
	it.each([
		['{"host": "127.0.0.1", "port": 27582, "pid": 4242, "version": "0.1.0", "api_version": 1}', "http://127.0.0.1:27582"],
		['{"host": "::1", "port": 1, "pid": 2}', "http://[::1]:1"],
	])("parses %s", (text, url) => {
		const info = parseSidecarInfo(text);
		expect(info).not.toBeNull();
		expect(sidecarUrl(info!)).toBe(url);
	});

	it.each([["{"], ['{"host": "h"}'], ["[]"], ['{"host": "h", "port": "1", "pid": 2}']])("ignores %s", (text) => {
		expect(parseSidecarInfo(text)).toBeNull();
	});
});

describe("resolveEndpoint", () => {
	const SETTINGS = "http://127.0.0.1:27582";
	it.each([
		["nothing found: settings URL, stored token", " stored ", null, { baseUrl: SETTINGS, token: "stored", via: "settings" }],
		["no stored token: the token file", null, { url: null, token: "file" }, { baseUrl: SETTINGS, token: "file", via: "settings" }],
		["a stored token wins over the file", "stored", { url: null, token: "file" }, { baseUrl: SETTINGS, token: "stored", via: "settings" }],
		[
			"a live sidecar.json wins with its own token",
			"stored",
			{ url: "http://127.0.0.1:5000", token: "file" },
			{ baseUrl: "http://127.0.0.1:5000", token: "file", via: "discovery" },
		],
		["no token anywhere", "", null, { baseUrl: SETTINGS, token: null, via: "settings" }],
	])("%s", (_name, stored, discovered, expected) => {
		expect(resolveEndpoint(SETTINGS, stored, discovered)).toEqual(expected);
	});
});
