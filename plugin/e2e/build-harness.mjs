// Bundles the e2e page (the `obsidian` shim + harness) into e2e/.build/harness.js. The plugin itself is the
// production dist/main.js, built by `npm run build` (or the esbuild step of `npm run e2e`).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));

await esbuild.build({
	entryPoints: [path.join(here, "harness", "harness.ts")],
	bundle: true,
	format: "iife",
	target: "es2020",
	outfile: path.join(here, ".build", "harness.js"),
	logLevel: "warning",
	sourcemap: "inline",
});

// The desktop-only modules, for Node: the run checks discovery and auto-start against the real sidecar.
await esbuild.build({
	entryPoints: [path.join(here, "harness", "desktop-entry.ts")],
	bundle: true,
	platform: "node",
	format: "esm",
	target: "node20",
	outfile: path.join(here, ".build", "desktop.mjs"),
	logLevel: "warning",
	// The plugin uses window timers (popout-safe in Obsidian); Node has the same functions on globalThis.
	define: { window: "globalThis" },
});

if (!existsSync(path.join(here, "..", "dist", "main.js"))) {
	console.error("dist/main.js is missing: run `npm run build` first.");
	process.exit(1);
}
