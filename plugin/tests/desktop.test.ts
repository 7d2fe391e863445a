// @vitest-environment jsdom
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LookupStore } from "../src/desktop/commandLookup";
import { discover, isAlive, vaultDataFolder } from "../src/desktop/discovery";
import { startSidecar } from "../src/desktop/sidecarProcess";

let root = "";

beforeEach(async () => {
	root = await realpath(await mkdtemp(path.join(tmpdir(), "ask-vault-desktop-")));
});

afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("discovery on disk", () => {
	it("finds the token and a live sidecar.json in <data-dir>/vaults/<slug>-<hash>", async () => {
		const vault = path.join(root, "My Vault");
		await mkdir(vault);
		const dataDir = path.join(root, "data");
		const hash = createHash("sha256").update(vault, "utf8").digest("hex").slice(0, 12);
		const folder = path.join(dataDir, "vaults", `My-Vault-${hash}`);
		expect(await vaultDataFolder(vault, dataDir)).toBe(folder);

		expect(await discover(vault, dataDir)).toEqual({ url: null, token: null });
		await mkdir(folder, { recursive: true });
		await writeFile(path.join(folder, "token"), "tok-123\n", { mode: 0o600 });
		expect(await discover(vault, dataDir)).toEqual({ url: null, token: "tok-123" });

		const info = { host: "127.0.0.1", port: 28123, pid: process.pid, version: "0.1.0", api_version: 1 };
		await writeFile(path.join(folder, "sidecar.json"), JSON.stringify(info));
		expect(await discover(vault, dataDir)).toEqual({ url: "http://127.0.0.1:28123", token: "tok-123" });

		await writeFile(path.join(folder, "sidecar.json"), JSON.stringify({ ...info, pid: 2 ** 22 + 12345 }));
		expect((await discover(vault, dataDir)).url).toBeNull();
	});

	it("resolves symlinks before hashing, like the sidecar", async () => {
		const vault = path.join(root, "real");
		await mkdir(vault);
		const { symlink } = await import("node:fs/promises");
		await symlink(vault, path.join(root, "link"));
		expect(await vaultDataFolder(path.join(root, "link"), root)).toBe(await vaultDataFolder(vault, root));
	});

	it.each([
		[process.pid, true],
		[0, false],
		[-1, false],
		[1.5, false],
	])("isAlive(%s) = %s", (pid, alive) => {
		expect(isAlive(pid)).toBe(alive);
	});
});

describe("sidecar process", () => {
	it("spawns without a shell, passing arguments untouched", async () => {
		const out = path.join(root, "args.json");
		const script = "require('fs').writeFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)))";
		const args = [out, "serve", "--vault", "/a b/$HOME;rm -rf x", "--exclude", "*.md"];
		const child = await startSidecar(process.execPath, ["-e", script, ...args]);
		const exit = await child.exited;
		expect(exit.code).toBe(0);
		const { readFile } = await import("node:fs/promises");
		expect(JSON.parse(await readFile(out, "utf8"))).toEqual(args.slice(1));
	});

	it("stop() ends a long-running process", async () => {
		const child = await startSidecar(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
		expect(child.pid).toBeGreaterThan(0);
		child.stop();
		const exit = await child.exited;
		expect(exit.signal).toBe("SIGTERM");
	});

	it("reports a failed start with stderr", async () => {
		const child = await startSidecar(process.execPath, ["-e", "console.error('port 27582 is taken'); process.exit(3)"]);
		const exit = await child.exited;
		expect(exit).toMatchObject({ code: 3, stderrTail: "port 27582 is taken" });
	});

	it("refuses a missing command with the install command, and records the lookup", async () => {
		const lookups = new LookupStore();
		const place = { platform: "linux", env: { PATH: root }, home: root };
		const start = startSidecar(path.join(root, "no-such-askvault"), ["serve"], { lookups, place });
		await expect(start).rejects.toThrow("Install it with `pipx install askvault` (or `uv tool install askvault`)");
		expect(lookups.current).toEqual({
			state: "missing",
			command: path.join(root, "no-such-askvault"),
			searched: [path.join(root, "no-such-askvault"), path.join(root, "askvault"), path.join(root, ".local", "bin", "askvault")],
		});
	});

	it("runs `askvault` found on PATH when the configured path is gone, passing arguments untouched", async () => {
		const bin = path.join(root, "pipx-bin");
		await mkdir(bin);
		// Node itself under the program's name: a real executable found by name, run without a shell.
		await symlink(process.execPath, path.join(bin, "askvault"));
		const out = path.join(root, "args.json");
		const script = "require('fs').writeFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)))";
		const lookups = new LookupStore();
		const place = { platform: "linux", env: { PATH: `/nonexistent:${bin}` }, home: root };
		const child = await startSidecar("/old/venv/bin/askvault", ["-e", script, out, "serve", "--vault", "a b"], { lookups, place });
		expect((await child.exited).code).toBe(0);
		expect(JSON.parse(await readFile(out, "utf8"))).toEqual(["serve", "--vault", "a b"]);
		expect(lookups.current).toEqual({ state: "found", command: "/old/venv/bin/askvault", path: path.join(bin, "askvault") });
	});
});
