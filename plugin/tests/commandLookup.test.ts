/** Finding the sidecar program: the candidates for each platform (pure), then the search on real files. */
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { candidates, describeLookup, type LookupPlace } from "../src/desktop/commandLookup";
import { locateCommand } from "../src/desktop/locate";

const linux = (env: Record<string, string>): LookupPlace => ({ platform: "linux", env, home: "/home/u" });

describe("candidates", () => {
	it.each<[string, string, LookupPlace, string[]]>([
		[
			"a bare name: PATH in order, then ~/.local/bin",
			"askvault",
			linux({ PATH: "/usr/bin:/opt/x/bin" }),
			["/usr/bin/askvault", "/opt/x/bin/askvault", "/home/u/.local/bin/askvault"],
		],
		[
			"pipx's and uv's own folders; relative, empty and repeated PATH entries dropped",
			"askvault",
			linux({ PATH: ".::/usr/bin:bin:/usr/bin", PIPX_BIN_DIR: "/pipx/bin", UV_TOOL_BIN_DIR: "/uv/bin", XDG_BIN_HOME: "/xdg/bin" }),
			["/usr/bin/askvault", "/pipx/bin/askvault", "/uv/bin/askvault", "/xdg/bin/askvault", "/home/u/.local/bin/askvault"],
		],
		[
			"macOS adds Homebrew's folders",
			"askvault",
			{ platform: "darwin", env: { PATH: "/usr/local/bin:/usr/bin" }, home: "/Users/u" },
			["/usr/local/bin/askvault", "/usr/bin/askvault", "/Users/u/.local/bin/askvault", "/opt/homebrew/bin/askvault"],
		],
		[
			"Windows: Path in any case, `;`, the .exe pipx writes",
			"askvault",
			{ platform: "win32", env: { Path: "C:\\Python\\Scripts\\;relative;D:\\bin" }, home: "C:\\Users\\u" },
			["C:\\Python\\Scripts\\askvault.exe", "D:\\bin\\askvault.exe", "C:\\Users\\u\\.local\\bin\\askvault.exe"],
		],
		[
			"a configured path first, then askvault anywhere",
			"/opt/venv/bin/askvault",
			linux({ PATH: "/usr/bin" }),
			["/opt/venv/bin/askvault", "/usr/bin/askvault", "/home/u/.local/bin/askvault"],
		],
		[
			"a configured path under ~",
			" ~/venvs/av/bin/askvault ",
			linux({}),
			["/home/u/venvs/av/bin/askvault", "/home/u/.local/bin/askvault"],
		],
		[
			"another program name, then askvault",
			"askvault-dev",
			linux({ PATH: "/usr/bin" }),
			["/usr/bin/askvault-dev", "/home/u/.local/bin/askvault-dev", "/usr/bin/askvault", "/home/u/.local/bin/askvault"],
		],
		["an empty setting means askvault", "", linux({}), ["/home/u/.local/bin/askvault"]],
		[
			"a Windows path without extension",
			"C:\\tools\\askvault",
			{ platform: "win32", env: {}, home: "C:\\Users\\u" },
			["C:\\tools\\askvault.exe", "C:\\Users\\u\\.local\\bin\\askvault.exe"],
		],
	])("%s", (_name, command, place, expected) => {
		expect(candidates(command, place)).toEqual(expected);
	});

	it("a missing program is explained with the exact install command", () => {
		const text = describeLookup({ state: "missing", command: "askvault", searched: [] });
		expect(text).toContain("Install it with `pipx install askvault` (or `uv tool install askvault`)");
		expect(describeLookup({ state: "found", command: "askvault", path: "/usr/bin/askvault" })).toBe("Using /usr/bin/askvault.");
	});
});

describe("locateCommand on disk", () => {
	let root = "";
	beforeEach(async () => {
		root = await realpath(await mkdtemp(path.join(tmpdir(), "ask-vault-lookup-")));
	});
	afterEach(async () => {
		await rm(root, { recursive: true, force: true });
	});

	async function program(folder: string, mode: number): Promise<string> {
		await mkdir(path.join(root, folder), { recursive: true });
		const file = path.join(root, folder, "askvault");
		await writeFile(file, "#!/bin/sh\n");
		await chmod(file, mode);
		return file;
	}

	it("skips a file that is not executable and a folder of the same name", async () => {
		await program("a", 0o644);
		await mkdir(path.join(root, "b", "askvault"), { recursive: true });
		const good = await program("c", 0o755);
		const place = linux({ PATH: ["a", "b", "c"].map((d) => path.join(root, d)).join(":") });
		expect(await locateCommand("askvault", place)).toEqual({ state: "found", command: "askvault", path: good });
	});

	it("finds what pipx installed in ~/.local/bin when PATH lacks it", async () => {
		const good = await program(".local/bin", 0o755);
		const place: LookupPlace = { platform: "linux", env: { PATH: path.join(root, "empty") }, home: root };
		expect(await locateCommand("askvault", place)).toEqual({ state: "found", command: "askvault", path: good });
	});

	it("says where it looked when the program is nowhere", async () => {
		const place: LookupPlace = { platform: "linux", env: { PATH: path.join(root, "empty") }, home: root };
		expect(await locateCommand("askvault", place)).toEqual({
			state: "missing",
			command: "askvault",
			searched: [path.join(root, "empty", "askvault"), path.join(root, ".local", "bin", "askvault")],
		});
	});
});
