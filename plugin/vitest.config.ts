/** Unit and view tests: `obsidian` resolves to the runtime shim the e2e harness also uses. */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
	resolve: {
		alias: {
			obsidian: fileURLToPath(new URL("./e2e/shim/obsidian.ts", import.meta.url)),
			electron: fileURLToPath(new URL("./e2e/shim/electron.ts", import.meta.url)),
		},
	},
	test: {
		include: ["tests/**/*.test.ts"],
		environment: "node",
		// The fixtures the sidecar's own tests read too (repository root, tests/fixtures/): the golden API bodies
		// its tests produce (api/) and the neutraliser corpus (neutralise/).
		env: { ASK_VAULT_FIXTURES: fileURLToPath(new URL("../tests/fixtures/", import.meta.url)) },
	},
});
