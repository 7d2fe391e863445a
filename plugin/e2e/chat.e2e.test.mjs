// End-to-end: the built dist/main.js in headless Chromium (through the `obsidian` shim), talking to the REAL
// sidecar (`askvault serve`) across origins, with the fake Ollama server as its only stand-in.
// Driven like a person: load the plugin, open the pane, ask, watch it stream, hover and click citations, open the
// inspector, ask a follow-up, stop an answer.
import assert from "node:assert/strict";
import { copyFile, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { REPO_DIR, SCREENSHOTS, waitFor } from "./lib.mjs";
import { ask, harness, lastTurn, shot, statusText, waitTurn } from "./page.mjs";
import { ANSWER, env, LAST_WORD, useE2E } from "./setup.mjs";

useE2E();

describe("Ask Vault in Chromium against the real sidecar", () => {
	it("loads dist/main.js through require('obsidian') and connects (status bar from /api/events)", async () => {
		const page = env.page;
		const wiring = await harness(page, () => {
			const app = window.askVaultHarness.app;
			return {
				commands: [...app.commands.values()].map((c) => ({ id: c.id, name: c.name, hotkeys: c.hotkeys ?? null })),
				views: [...app.viewRegistry.keys()],
				hover: app.hoverSources.get("ask-vault-chat") ?? null,
				relatedHover: app.hoverSources.get("ask-vault-related") ?? null,
				tabs: app.settingTabs.length,
			};
		});
		assert.deepEqual(
			wiring.commands.map((c) => c.id).sort(),
			["ask", "ask-about-note", "ask-about-selection", "connect-remote", "open-chat", "open-related", "reindex", "search"].map((id) => `ask-vault:${id}`).sort(),
		);
		assert.ok(wiring.commands.every((c) => c.hotkeys === null), "no default hotkeys");
		assert.deepEqual(wiring.views.sort(), ["ask-vault-chat", "ask-vault-related"]);
		assert.deepEqual(wiring.hover, { display: "Ask Vault", defaultMod: false });
		assert.deepEqual(wiring.relatedHover, { display: "Ask Vault related notes", defaultMod: false });
		assert.equal(wiring.tabs, 1);
		await waitFor("the status bar to say ready", async () => /^Ask Vault: (ready|indexing)/.test(await statusText(page)));
	});

	it("opens the pane from the ribbon, and the answer streams in as it is written", async () => {
		const page = env.page;
		await page.click(".side-dock-ribbon-action[aria-label='Open chat']");
		await page.waitForSelector(".ask-vault-view .ask-vault-input");
		await harness(page, () => {
			window.stopWatching = window.askVaultHarness.watchAnswers();
		});
		await ask(page, "Which port does Postgres listen on?");
		await page.waitForSelector(".ask-vault-send.mod-warning"); // the Send button became Stop
		const turn = await waitTurn(page, ["done", "error"]);
		assert.equal(turn.status, "done", `answer failed: ${JSON.stringify(turn.error)}`);
		assert.equal(turn.text, ANSWER);
		const { texts: seen, renders } = await harness(page, () => window.stopWatching());
		assert.ok(seen.length >= 4, `several renders while streaming (saw ${seen.length})`);
		assert.ok(seen[0].length < seen[seen.length - 1].length, "early renders are shorter than the last");
		assert.ok(renders >= 4, `MarkdownStream rendered ${renders} times`);
		assert.equal(await page.locator(".ask-vault-send").textContent(), "Send");
		const body = await page.locator(".ask-vault-answer-body").last().textContent();
		assert.ok(body.includes("Postgres listens on port 5433"), body);
		const req = await harness(page, () => window.askVaultHarness.requests.filter((r) => r.url.endsWith("/api/ask")));
		assert.equal(req.length, 1);
		assert.deepEqual(JSON.parse(req[0].body), { question: "Which port does Postgres listen on?", k: 8 });
	});

	it("lists the sources sent, and each [n] is a citation to its note and heading", async () => {
		const page = env.page;
		const turn = await lastTurn(page);
		const sent = turn.retrieval.sources.filter((s) => s.sent).sort((a, b) => a.n - b.n);
		assert.ok(sent.length >= 2, "at least two sources were sent");
		const listed = await page.locator(".ask-vault-source-list li").allTextContents();
		assert.equal(listed.length, sent.length);
		sent.forEach((s, i) => assert.ok(listed[i].startsWith(`[${s.n}] ${s.path}`), listed[i]));
		const cites = await page.locator(".ask-vault-answer-body a.ask-vault-citation").evaluateAll((els) =>
			els.map((e) => ({ n: e.getAttribute("data-ask-vault-n"), href: e.getAttribute("data-href"), text: e.textContent })),
		);
		assert.deepEqual(
			cites.map((c) => c.text),
			["[1]", "[2]", "[1]", "[2]"],
		);
		for (const c of cites) {
			const s = sent.find((x) => String(x.n) === c.n);
			assert.equal(c.href, `${s.path}#${s.heading_path[s.heading_path.length - 1]}`);
		}
	});

	it("hovering a citation asks Obsidian for a Page preview at the heading and shows the fallback card", async () => {
		const page = env.page;
		const turn = await lastTurn(page);
		const source = turn.retrieval.sources.find((s) => s.n === 1);
		const heading = source.heading_path[source.heading_path.length - 1];
		// The cited heading really is a heading of that note in the vault.
		const note = await readFile(path.join(env.vault, source.path), "utf8");
		assert.match(note, new RegExp(`^#+ ${heading}$`, "m"));
		assert.equal(source.path, "Homelab/Postgres.md");

		await page.hover(".ask-vault-answer-body a.ask-vault-citation >> nth=0");
		const payload = await waitFor("a hover-link event", () =>
			harness(page, () => {
				const h = window.askVaultHarness;
				const p = h.records.hoverLinks[h.records.hoverLinks.length - 1];
				return p
					? {
							source: p.source,
							linktext: p.linktext,
							sourcePath: p.sourcePath,
							event: p.event.type,
							parentIsView: p.hoverParent === h.view(),
							target: p.targetEl.textContent,
						}
					: null;
			}),
		);
		assert.deepEqual(payload, {
			source: "ask-vault-chat",
			linktext: `Homelab/Postgres.md#${heading}`,
			sourcePath: "",
			event: "mouseover",
			parentIsView: true,
			target: "[1]",
		});
		const card = page.locator(".ask-vault-hover-card");
		await card.waitFor();
		const trail = await card.locator(".ask-vault-hover-trail").textContent();
		assert.equal(trail, `[1] ${[source.path, ...source.heading_path].join(" › ")}`);
		const ranks = await card.locator(".ask-vault-hover-ranks").textContent();
		assert.ok(ranks.includes(`Dense rank ${source.dense_rank ?? "–"}`), ranks);
		assert.ok(ranks.includes(`keyword rank ${source.keyword_rank ?? "–"}`), ranks);
		assert.ok((await card.locator(".ask-vault-hover-text").textContent()).includes("5433"));
		await shot(page, "hover-card");
	});

	it("clicking a citation opens the note at the heading (Ctrl-click: a new tab)", async () => {
		const page = env.page;
		const turn = await lastTurn(page);
		const s2 = turn.retrieval.sources.find((s) => s.n === 2);
		const link = `${s2.path}#${s2.heading_path[s2.heading_path.length - 1]}`;
		await page.click(".ask-vault-answer-body a.ask-vault-citation >> nth=1");
		await page.click(".ask-vault-answer-body a.ask-vault-citation >> nth=1", { modifiers: ["Control"] });
		const opened = await harness(page, () => window.askVaultHarness.records.opened.slice(-2));
		assert.deepEqual(opened, [
			{ linktext: link, sourcePath: "", newLeaf: false, state: null },
			{ linktext: link, sourcePath: "", newLeaf: "tab", state: null },
		]);
		await page.mouse.move(5, 5);
	});

	it("the inspector shows the fused ranking, the cut, query terms, prompt and timings", async () => {
		const page = env.page;
		const turn = await lastTurn(page);
		await page.click(".ask-vault-inspector > summary");
		const rows = await page.locator(".ask-vault-ranking tbody tr:not(.ask-vault-cut)").evaluateAll((trs) =>
			trs.map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.textContent)),
		);
		assert.equal(rows.length, turn.retrieval.sources.length);
		turn.retrieval.sources.forEach((s, i) => {
			assert.equal(rows[i][2], s.dense_rank === null ? "–" : String(s.dense_rank));
			assert.equal(rows[i][3], s.keyword_rank === null ? "–" : String(s.keyword_rank));
			assert.equal(rows[i][4], s.fused_score.toFixed(4));
		});
		const cut = await page.locator(".ask-vault-ranking .ask-vault-cut").textContent();
		assert.ok(/Sent to the model|All of these were sent/.test(cut), cut);
		const terms = await page.locator(".ask-vault-terms dt").allTextContents();
		assert.deepEqual(terms, turn.retrieval.terms.map((t) => t.term));
		const timings = await page.locator(".ask-vault-timings dd").allTextContents();
		assert.ok(timings.some((t) => /\d/.test(t)), `timings: ${timings}`);
		const prompt = await page.locator(".ask-vault-prompt-content").allTextContents();
		assert.deepEqual(prompt, turn.retrieval.prompt.map((m) => m.content));
		await page.locator(".ask-vault-messages").evaluate((el) => (el.scrollTop = 0));
		await shot(page, "chat-inspector");
		// For the README: the pane alone (right sidebar and its status bar), answer, citations and inspector open.
		const pane = await page.locator(".workspace-split.mod-right-split").boundingBox();
		const viewport = page.viewportSize();
		await page.screenshot({
			path: path.join(SCREENSHOTS, "pane.png"),
			clip: { x: pane.x, y: 0, width: pane.width, height: viewport.height },
		});
		await copyFile(path.join(SCREENSHOTS, "pane.png"), path.join(REPO_DIR, "docs", "screenshot-chat.png"));
	});

	it("a follow-up sends the conversation so far", async () => {
		const page = env.page;
		const first = await lastTurn(page);
		await ask(page, "And when do its backups run?");
		const turn = await waitTurn(page, ["done", "error"]);
		assert.equal(turn.status, "done", JSON.stringify(turn.error));
		const asks = await harness(page, () => window.askVaultHarness.requests.filter((r) => r.url.endsWith("/api/ask")));
		assert.deepEqual(JSON.parse(asks[asks.length - 1].body).history, [
			{ role: "user", content: "Which port does Postgres listen on?" },
			{ role: "assistant", content: first.text },
		]);
		if (turn.retrieval.rewritten) {
			const query = await page.locator(".ask-vault-query").last().textContent();
			assert.ok(query.includes(`Rewritten query: ${turn.retrieval.query}`), query);
		}
	});

	it("Stop aborts the stream mid-way and keeps the partial answer", async () => {
		const page = env.page;
		await ask(page, "When are the backups of the database made?");
		await waitFor("a few words of the answer", async () => {
			const turn = await lastTurn(page);
			return turn.text.split(" ").length >= 6;
		});
		await page.click(".ask-vault-send");
		const turn = await waitTurn(page, ["stopped"], 10_000);
		assert.ok(turn.text.length > 0 && turn.text.length < ANSWER.length, `partial: ${turn.text}`);
		assert.ok(!turn.text.includes(LAST_WORD));
		await waitFor("the partial answer on screen", async () =>
			(await page.locator(".ask-vault-answer-body").last().textContent()).startsWith("Postgres listens"),
		);
		assert.equal(await page.locator(".ask-vault-answer-status").last().textContent(), "Stopped.");
		assert.equal(await page.locator(".ask-vault-send").textContent(), "Send");
		await shot(page, "stopped");
		// The sidecar is fine afterwards: the next question is answered in full.
		await ask(page, "Which port does Postgres listen on?");
		const next = await waitTurn(page, ["done", "error"]);
		assert.equal(next.status, "done", JSON.stringify(next.error));
	});
});
