// End-to-end: a question the vault cannot answer, in headless Chromium against the REAL sidecar and the fake Ollama.
// The sidecar's relevance decision keeps the notes back (no model call): the turn says why, lists the closest notes
// (clickable like sources) and the inspector shows the decision; "Ask anyway" re-asks with force and the answer streams.
import assert from "node:assert/strict";
import { copyFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { REPO_DIR, SCREENSHOTS } from "./lib.mjs";
import { ask, harness, lastTurn, waitTurn } from "./page.mjs";
import { ANSWER, env, useE2E } from "./setup.mjs";

useE2E();

// No word of it occurs in the e2e vault, and no note is close to it in meaning.
const UNCOVERED = "Who won the chess tournament in Oslo?";

const askBodies = (page) =>
	harness(page, () => window.askVaultHarness.requests.filter((r) => r.url.endsWith("/api/ask")).map((r) => JSON.parse(r.body)));

describe("a question the notes do not cover", () => {
	it("is not answered: the reason, the closest notes not used, and no model call", async () => {
		const page = env.page;
		await harness(page, () => window.askVaultHarness.command("open-chat"));
		await page.waitForSelector(".ask-vault-view .ask-vault-input");
		await ask(page, UNCOVERED);
		const turn = await waitTurn(page, ["done", "error"]);
		assert.equal(turn.status, "done", JSON.stringify(turn.error));
		const { relevance, closest } = turn.retrieval;
		assert.equal(relevance.answer, false, JSON.stringify(relevance));
		assert.ok(relevance.score < relevance.threshold, JSON.stringify(relevance));
		assert.equal(relevance.calibration.model, "all-minilm");
		// No model was asked: nothing sent, no prompt, no generation time or tokens.
		assert.deepEqual([turn.retrieval.sent, turn.retrieval.prompt], [[], []]);
		assert.deepEqual([turn.done.no_results, turn.done.metrics.generation_ms, turn.done.metrics.prompt_tokens], [true, null, null]);
		assert.ok(closest.length >= 1, "the closest notes are listed");

		assert.equal(await page.locator(".ask-vault-answer-status").last().textContent(), relevance.reason);
		const listed = await page.locator(".ask-vault-closest-list li").allTextContents();
		assert.equal(listed.length, closest.length);
		closest.forEach((s, i) => assert.ok(listed[i].startsWith(`${s.path} › `), listed[i]));
		assert.ok(listed.every((text) => / · dense -?\d\.\d{3} · BM25 /.test(text)), listed.join("\n"));
		assert.equal(await page.locator(".ask-vault-source-list a[data-ask-vault-n]").count(), 0);
		assert.equal(await page.locator("button.ask-vault-ask-anyway").textContent(), "Ask anyway");
	});

	it("the inspector shows the decision: each signal, the score and the threshold", async () => {
		const page = env.page;
		const turn = await lastTurn(page);
		await page.click(".ask-vault-inspector > summary");
		const labels = await page.locator(".ask-vault-relevance-facts dt").allTextContents();
		assert.deepEqual(labels.slice(0, 7), [
			"Decision",
			"Score",
			"Best dense similarity",
			"Keyword strength",
			"Term coverage",
			"Legs agree",
			"Dense gap",
		]);
		const values = await page.locator(".ask-vault-relevance-facts dd").allTextContents();
		const { score, threshold } = turn.retrieval.relevance;
		assert.equal(values[1], `${score.toFixed(2)} (threshold ${threshold.toFixed(2)})`);
		assert.equal(await page.locator(".ask-vault-ranking .ask-vault-cut").textContent(), "None of these were sent to the model");
		await page.locator(".ask-vault-messages").evaluate((el) => (el.scrollTop = 0));
		// For the docs: the pane alone with the abstained turn, its closest notes and the decision in the inspector.
		const pane = await page.locator(".workspace-split.mod-right-split").boundingBox();
		const shot = path.join(SCREENSHOTS, "abstain.png");
		await page.screenshot({ path: shot, clip: { x: pane.x, y: 0, width: pane.width, height: page.viewportSize().height } });
		await copyFile(shot, path.join(REPO_DIR, "docs", "screenshot-abstain.png"));
	});

	it("a closest note opens at its heading when clicked", async () => {
		const page = env.page;
		const turn = await lastTurn(page);
		const first = turn.retrieval.closest[0];
		await page.click(".ask-vault-closest-list a.ask-vault-closest-link >> nth=0");
		const opened = await harness(page, () => window.askVaultHarness.records.opened.slice(-1));
		const heading = first.heading_path[first.heading_path.length - 1];
		assert.equal(opened[0].linktext, heading ? `${first.path}#${heading}` : first.path);
	});

	it("Ask anyway re-asks the same question with force, and the answer streams", async () => {
		const page = env.page;
		await page.click("button.ask-vault-ask-anyway");
		await page.waitForSelector(".ask-vault-send.mod-warning"); // streaming: the Send button became Stop
		const turn = await waitTurn(page, ["done", "error"]);
		assert.equal(turn.status, "done", JSON.stringify(turn.error));
		assert.equal(turn.text, ANSWER);
		assert.deepEqual([turn.retrieval.relevance.answer, turn.retrieval.relevance.forced], [true, true]);
		assert.ok(turn.retrieval.sent.length >= 1);
		const bodies = await askBodies(page);
		assert.deepEqual(bodies.slice(-2), [
			{ question: UNCOVERED, k: 8 },
			{ question: UNCOVERED, k: 8, force: true },
		]);
		assert.equal(await page.locator(".ask-vault-closest").count(), 0);
		assert.ok((await page.locator(".ask-vault-source-list li").count()) >= 1);
		const status = await page.locator(".ask-vault-answer-status").last().textContent();
		assert.ok(status.startsWith("Sent anyway as you asked"), status);
	});
});
