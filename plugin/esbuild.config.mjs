// Bundles src/main.ts into dist/main.js the way Obsidian loads plugins (CommonJS, `obsidian` external).
// `node esbuild.config.mjs` watches; `node esbuild.config.mjs production` builds once, minified.
import { copyFile, mkdir } from "node:fs/promises";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const production = process.argv[2] === "production";
const outdir = path.join(here, "dist");

const context = await esbuild.context({
	banner: { js: "/* Ask Vault — bundled by esbuild from plugin/src. */" },
	entryPoints: [path.join(here, "src/main.ts")],
	bundle: true,
	external: [
		"obsidian",
		"electron",
		"@codemirror/autocomplete",
		"@codemirror/collab",
		"@codemirror/commands",
		"@codemirror/language",
		"@codemirror/lint",
		"@codemirror/search",
		"@codemirror/state",
		"@codemirror/view",
		"@lezer/common",
		"@lezer/highlight",
		"@lezer/lr",
		...builtinModules,
		...builtinModules.map((m) => `node:${m}`),
	],
	format: "cjs",
	target: "es2020",
	// Obsidian evaluates main.js as CommonJS: lazy `import("fs")` must become `require("fs")`, not a real ES import.
	supported: { "dynamic-import": false },
	logLevel: "info",
	sourcemap: production ? false : "inline",
	treeShaking: true,
	minify: production,
	outfile: path.join(outdir, "main.js"),
});

// dist/ then holds a complete plugin folder: copy it to <vault>/.obsidian/plugins/ask-vault/ to try it.
async function copyAssets() {
	await mkdir(outdir, { recursive: true });
	await copyFile(path.join(here, "..", "manifest.json"), path.join(outdir, "manifest.json"));
	await copyFile(path.join(here, "styles.css"), path.join(outdir, "styles.css"));
}

if (production) {
	await context.rebuild();
	await copyAssets();
	await context.dispose();
} else {
	await copyAssets();
	await context.watch();
}
