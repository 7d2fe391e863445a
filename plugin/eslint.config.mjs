// ESLint for the plugin: eslint-plugin-obsidianmd's recommended config (what Obsidian's review runs), type-aware.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const here = path.dirname(fileURLToPath(import.meta.url));

// eslint-plugin-obsidianmd reads manifest.json from the working directory when it is imported (for
// minAppVersion and isDesktopOnly); ours sits at the repository root, one level up.
const cwd = process.cwd();
process.chdir(path.join(here, ".."));
const { default: obsidianmd } = await import("eslint-plugin-obsidianmd");
process.chdir(cwd);
const { DEFAULT_BRANDS } = await import("eslint-plugin-obsidianmd/dist/lib/rules/ui/brands.js");
const manifest = JSON.parse(readFileSync(path.join(here, "..", "manifest.json"), "utf8"));

const nodeBuiltins = ["fs", "fs/promises", "path", "os", "crypto", "child_process", "http", "https", "net", "tls", "stream", "electron"];

export default tseslint.config(
	globalIgnores(["node_modules/", "dist/", "e2e/screenshots/", "e2e/.build/", "coverage/"]),
	{
		languageOptions: {
			globals: { ...globals.browser },
			parserOptions: {
				projectService: {
					allowDefaultProject: ["*.mjs", "e2e/*.mjs"],
					// The e2e scenarios are one file per feature plus their shared helpers: more than the default cap of 8.
					maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 24,
				},
				tsconfigRootDir: here,
			},
		},
	},
	...obsidianmd.configs.recommended,
	{
		files: ["**/*.ts"],
		rules: {
			"obsidianmd/no-unsupported-api": ["error", { minAppVersion: manifest.minAppVersion }],
			"obsidianmd/ui/sentence-case": [
				"warn",
				{ enforceCamelCaseLower: true, brands: [...DEFAULT_BRANDS, manifest.name, "Ollama"], ignoreRegex: ["^https?://"] },
			],
			"@typescript-eslint/no-explicit-any": "error",
			"no-console": ["error", { allow: ["warn", "error"] }],
		},
	},
	{
		// The wire client, stream reader, answer state and citation mapping are plain TypeScript: no Obsidian,
		// no Node, so they run (and are tested) anywhere.
		files: ["src/sidecar/**/*.ts", "src/answer/**/*.ts", "src/settings.ts"],
		rules: {
			"@typescript-eslint/no-restricted-imports": [
				"error",
				{
					paths: [
						{ name: "obsidian", message: "src/sidecar and src/answer stay free of Obsidian: pass what they need in." },
						...nodeBuiltins.map((name) => ({ name, message: "Node APIs belong in src/desktop." })),
					],
					patterns: [
						{ group: ["node:*"], message: "Node APIs belong in src/desktop." },
						{ group: ["**/ui/*", "**/plugin/*", "**/desktop/*", "**/main"], message: "Pure code may not import the Obsidian-facing layers." },
					],
				},
			],
		},
	},
	{
		// Desktop-only modules, reached only behind Platform.isDesktopApp, load Node inside their functions
		// (`await import("fs")`), so the bundle loads on phones. obsidianmd/no-nodejs-modules accepts only a
		// Platform.isDesktop guard in the same function, and isDesktop is the UI's mode (false on a desktop emulating
		// mobile, where Node is there): instead, a static import here may bring types only.
		files: ["src/desktop/**/*.ts"],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			"obsidianmd/no-nodejs-modules": "off",
			"@typescript-eslint/no-restricted-imports": [
				"error",
				{
					paths: nodeBuiltins.map((name) => ({
						name,
						allowTypeImports: true,
						message: "Load Node modules inside the function that needs them (await import), so the bundle loads on mobile.",
					})),
					patterns: [{ group: ["node:*"], allowTypeImports: true, message: "Load Node modules lazily, without the node: prefix." }],
				},
			],
		},
	},
	{
		// Node scripts (build, e2e runner) and tests run outside Obsidian.
		files: ["*.mjs", "e2e/*.mjs", "tests/**/*.ts", "vitest.config.ts"],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			"obsidianmd/no-nodejs-modules": "off",
			"no-restricted-globals": "off",
			"import/no-extraneous-dependencies": "off",
			"obsidianmd/ui/sentence-case": "off",
			"obsidianmd/prefer-window-timers": "off",
			// They build test vaults on disk, where `.obsidian` is the config folder a fresh vault gets.
			"obsidianmd/hardcoded-config-path": "off",
		},
	},
	{
		// The in-browser stand-in for the `obsidian` module (tests and e2e) imitates the app, not a plugin.
		files: ["e2e/shim/**/*.ts", "e2e/harness/**/*.ts"],
		rules: {
			"obsidianmd/ui/sentence-case": "off",
			"obsidianmd/no-unsupported-api": "off",
			"obsidianmd/prefer-window-timers": "off",
			"obsidianmd/prefer-create-el": "off",
			"obsidianmd/hardcoded-config-path": "off",
			// The shim implements setCssProps, instanceOf and friends on top of the raw DOM.
			"obsidianmd/no-static-styles-assignment": "off",
			"obsidianmd/prefer-instanceof": "off",
			"obsidianmd/no-global-this": "off",
		},
	},
);
