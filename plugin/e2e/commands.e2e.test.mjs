// End-to-end: the plugin's commands in headless Chromium against the REAL sidecar: Search vault, Ask about current
// note, Reindex vault.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { waitFor } from "./lib.mjs";
import { harness, shot, waitTurn } from "./page.mjs";
import { env, sidecarStatus, useE2E } from "./setup.mjs";

useE2E();

describe("Ask Vault in Chromium against the real sidecar", () => {
	it("Search vault lists hybrid results and opens the chosen one at its heading", async () => {
		const page = env.page;
		await harness(page, () => window.askVaultHarness.command("search"));
		await page.fill(".prompt-input", "postgres port");
		await page.waitForSelector(".suggestion-item");
		const trails = await page.locator(".suggestion-item .ask-vault-search-trail").allTextContents();
		assert.ok(trails.some((t) => t.startsWith("Homelab/Postgres.md")), trails.join(" | "));
		await shot(page, "search");
		const parts = trails[0].split(" › ");
		await page.click(".suggestion-item >> nth=0");
		const opened = await harness(page, () => window.askVaultHarness.records.opened.at(-1));
		assert.equal(opened.linktext, parts.length > 1 ? `${parts[0]}#${parts[parts.length - 1]}` : parts[0]);
	});

	it("Ask about current note scopes retrieval to the note's folder", async () => {
		const page = env.page;
		await harness(page, () => {
			const { app, obsidian } = window.askVaultHarness;
			app.workspace.activeFile = Object.assign(new obsidian.TFile(), { path: "Homelab/Backups.md", basename: "Backups" });
			return window.askVaultHarness.command("ask-about-note");
		});
		await page.fill(".modal .ask-vault-input", "How often are restores tested?");
		await page.click(".modal button.mod-cta");
		const turn = await waitTurn(page, ["done", "error"]);
		assert.equal(turn.status, "done", JSON.stringify(turn.error));
		const asks = await harness(page, () => window.askVaultHarness.requests.filter((r) => r.url.endsWith("/api/ask")));
		const body = JSON.parse(asks[asks.length - 1].body);
		assert.equal(body.question, 'About the note "Backups": How often are restores tested?');
		assert.deepEqual(body.filters, { folder: "Homelab" });
		assert.ok(turn.retrieval.sources.every((s) => s.path.startsWith("Homelab/")), "only Homelab notes retrieved");
	});

	it("Reindex vault starts a run (or says one is running)", async () => {
		const page = env.page;
		await harness(page, () => window.askVaultHarness.command("reindex"));
		await waitFor("a reindex notice", () =>
			harness(page, () =>
				window.askVaultHarness.records.notices.some((n) => n === "Ask Vault: reindexing started." || n === "Ask Vault is already indexing."),
			),
		);
		await waitFor("the index to be idle again", async () => (await sidecarStatus()).index.state === "idle", 60_000);
	});
});
