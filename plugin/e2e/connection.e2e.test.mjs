// End-to-end: the plugin's connection to the REAL sidecar in headless Chromium: the sidecar going down and coming
// back, an origin the sidecar refuses (CORS), and unloading the plugin.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { waitFor } from "./lib.mjs";
import { ask, harness, shot, statusText, waitTurn } from "./page.mjs";
import { ANSWER, env, startSidecar, useE2E } from "./setup.mjs";

useE2E();

describe("Ask Vault in Chromium against the real sidecar", () => {
	before(async () => {
		// The pane is open when the sidecar goes away, as it is after the chat scenarios.
		await harness(env.page, () => window.askVaultHarness.command("open-chat"));
		await env.page.waitForSelector(".ask-vault-view .ask-vault-input");
	});

	it("sidecar down: a readable error with Retry; back up: reconnects and Retry answers", async () => {
		const page = env.page;
		await env.sidecar.stop();
		await waitFor("the status bar to say disconnected", async () => (await statusText(page)) === "Ask Vault: disconnected", 30_000);
		// A question the notes answer: after the retry the model must be asked (one they do not cover would be
		// kept back by the relevance decision, with no model call).
		await ask(page, "Which port does Postgres listen on?");
		const turn = await waitTurn(page, ["error"]);
		assert.equal(turn.error.code, "unreachable");
		const box = page.locator(".ask-vault-error").last();
		const message = await box.locator(".ask-vault-error-message").textContent();
		assert.ok(message.startsWith(`Cannot reach the Ask Vault sidecar at ${env.sidecarUrl}`), message);
		assert.equal(await box.locator("button.ask-vault-retry").textContent(), "Retry");
		await shot(page, "sidecar-down");

		env.sidecar = await startSidecar();
		await waitFor("the status bar to reconnect", async () => /^Ask Vault: (ready|indexing)/.test(await statusText(page)), 45_000);
		await box.locator("button.ask-vault-retry").click();
		const retried = await waitTurn(page, ["done", "error"]);
		assert.equal(retried.status, "done", JSON.stringify(retried.error));
		assert.equal(retried.text, ANSWER);
		assert.equal(await page.locator(".ask-vault-error").count(), 0);
	});

	it("a page from an origin the sidecar does not allow is refused (CORS)", async () => {
		const other = await env.browser.newPage();
		try {
			await other.goto(`http://localhost:${env.static.port}/`);
			await harness(other, (o) => window.askVaultHarness.boot(o), { sidecarUrl: env.sidecarUrl, token: env.token });
			await harness(other, () => window.askVaultHarness.command("open-chat"));
			await other.waitForSelector(".ask-vault-input");
			await ask(other, "Which port does Postgres listen on?");
			const turn = await waitTurn(other, ["error", "done"]);
			assert.equal(turn.status, "error");
			assert.equal(turn.error.code, "unreachable");
			assert.equal(await statusText(other), "Ask Vault: disconnected");
		} finally {
			await other.close();
		}
	});

	it("unloading the plugin removes its view, commands and status bar item", async () => {
		const page = env.page;
		const after = await harness(page, () => {
			const h = window.askVaultHarness;
			h.unload();
			return {
				views: h.app.workspace.getLeavesOfType("ask-vault-chat").length,
				commands: h.app.commands.size,
				status: document.querySelectorAll(".ask-vault-status").length,
			};
		});
		assert.deepEqual(after, { views: 0, commands: 0, status: 0 });
		assert.deepEqual(env.pageErrors, [], "no uncaught errors in the page");
	});
});
