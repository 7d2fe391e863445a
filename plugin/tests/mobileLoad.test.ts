// @vitest-environment node
/** The bundle loads where Node does not exist (Obsidian on a phone): no Node module required while it loads, no regex a phone cannot parse. */
import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { compileFunction } from "node:vm";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";

let code = "";

beforeAll(async () => {
	// The options of esbuild.config.mjs that decide what the bundle requires, and when.
	const result = await build({
		entryPoints: [fileURLToPath(new URL("../src/main.ts", import.meta.url))],
		bundle: true,
		write: false,
		format: "cjs",
		target: "es2020",
		supported: { "dynamic-import": false },
		external: ["obsidian", "electron", ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
		logLevel: "silent",
	});
	code = result.outputFiles[0]?.text ?? "";
});

/** Stands in for the `obsidian` module while the bundle loads: any export is a class (loading only defines subclasses). */
const obsidianStub: unknown = new Proxy(
	{},
	{
		get: (_target, key) => (key === "__esModule" ? false : class {}),
	},
);

describe("the bundle on a phone", () => {
	it("loads asking for `obsidian` only: Node modules and Electron are required lazily, on desktop", () => {
		const required: string[] = [];
		const phoneRequire = (id: string): unknown => {
			required.push(id);
			if (id === "obsidian") return obsidianStub;
			throw new Error(`Cannot find module '${id}'`);
		};
		const module = { exports: {} as Record<string, unknown> };
		// Obsidian evaluates main.js as a CommonJS function of require, module and exports.
		const load = compileFunction(code, ["require", "module", "exports"]) as (r: typeof phoneRequire, m: typeof module, e: unknown) => void;
		load(phoneRequire, module, module.exports);
		expect(typeof module.exports.default).toBe("function");
		expect([...new Set(required)]).toEqual(["obsidian"]);
		// The Node modules are in the bundle, behind functions the desktop calls.
		expect(code).toMatch(/require\("https"\)/);
		expect(code).toMatch(/require\("child_process"\)/);
	});

	it("holds no regex lookbehind (iOS before 16.4 cannot parse one, and then loads nothing)", () => {
		expect(code).not.toMatch(/\(\?<[=!]/);
	});
});
