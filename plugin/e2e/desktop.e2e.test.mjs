// End-to-end, in Node: the plugin's desktop code (discovery, auto-start) against the REAL sidecar (`askvault serve`),
// with the fake Ollama server as its only stand-in.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { copyVault, freePort, waitFor } from "./lib.mjs";
import { ASKVAULT, env, useE2E } from "./setup.mjs";

useE2E({ browser: false });

describe("the plugin's desktop code against the real sidecar (Node)", () => {
	it("discovery finds the running sidecar and its token from the vault path alone", async () => {
		const { discover } = await import("./.build/desktop.mjs");
		assert.deepEqual(await discover(env.vault, env.dataDir), { url: env.sidecarUrl, token: env.token });
	});

	it("auto-start: the plugin's spawn and arguments run `askvault serve`, found by discovery, stopped cleanly", async () => {
		const { discover, parseSettings, serveArgs, startSidecar } = await import("./.build/desktop.mjs");
		const port = await freePort();
		const dataDir = path.join(env.tmp, "data-autostart");
		// A vault of its own whose Obsidian Excluded files name Recipes/: the sidecar reads them, the plugin passes none.
		const vault = await copyVault(path.join(env.tmp, "autostart"));
		await mkdir(path.join(vault, ".obsidian"), { recursive: true });
		await writeFile(path.join(vault, ".obsidian", "app.json"), JSON.stringify({ userIgnoreFilters: ["Recipes/"] }));
		const settings = parseSettings({
			sidecarUrl: `http://127.0.0.1:${port}`,
			dataDir,
			embedModel: "all-minilm",
			chatModel: "llama3.2:3b",
			// Saved by builds that had an "Excluded folders" setting: loads, and is not passed on.
			exclusions: ["Homelab/"],
		});
		process.env.OLLAMA_HOST = env.ollamaUrl; // Obsidian users run Ollama at its default URL
		const args = serveArgs(settings, vault);
		assert.ok(!args.includes("--exclude"), args.join(" "));
		const child = await startSidecar(ASKVAULT, args);
		try {
			const found = await waitFor("discovery of the spawned sidecar", async () => {
				const d = await discover(vault, dataDir);
				return d.url && d.token ? d : null;
			}, 60_000);
			assert.equal(found.url, `http://127.0.0.1:${port}`);
			const status = await waitFor("its first index run", async () => {
				const res = await fetch(`${found.url}/api/status`, { headers: { Authorization: `Bearer ${found.token}` } });
				const body = await res.json();
				return body.index.state === "idle" && body.vault.notes > 0 ? body : null;
			}, 60_000);
			assert.equal(status.vault.notes, 4, "Recipes/ was excluded by Obsidian's Excluded files");
			assert.equal(status.models.embed.name, "all-minilm");
			assert.equal(status.models.chat.name, "llama3.2:3b");
		} finally {
			child.stop();
		}
		const exit = await child.exited;
		assert.ok(exit.code === 0 || exit.signal === "SIGTERM", JSON.stringify(exit));
		assert.equal((await discover(vault, dataDir)).url, null, "no live sidecar.json after stop");
	});
});
