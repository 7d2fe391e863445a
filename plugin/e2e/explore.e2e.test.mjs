// End-to-end: "Why not…?" and "Related notes" in headless Chromium against the REAL sidecar and the fake Ollama.
// Why not…?: after an answer, pick a note in the fuzzy picker; the inspector shows the sidecar's explanation of it
// for the turn's searched query. Related notes: the sidebar follows the active note, lists related notes with their
// scores, previews one on hover (an imitation of Page preview) and opens it on click, then follows the opened note.
import assert from "node:assert/strict";
import { copyFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { REPO_DIR, SCREENSHOTS, vaultNotes, waitFor } from "./lib.mjs";
import { ask, harness, lastTurn, waitTurn } from "./page.mjs";
import { env, useE2E } from "./setup.mjs";

useE2E();


/** The same request straight to the sidecar (what the page must have shown). */
async function sidecarPost(route, body) {
	const res = await fetch(`${env.sidecarUrl}${route}`, {
		method: "POST",
		headers: { Authorization: `Bearer ${env.token}`, "Content-Type": "application/json" },
		body: JSON.stringify(body),
	});
	assert.equal(res.status, 200, `${route} answered ${res.status}: ${await res.clone().text()}`);
	return res.json();
}

const posted = (page, route) =>
	harness(page, (r) => window.askVaultHarness.requests.filter((q) => q.url.endsWith(r)).map((q) => JSON.parse(q.body)), route);

/** Opens "Why not…?" on the last turn, types `query` and picks `note` once it is the first suggestion. */
async function pickNote(page, query, note) {
	await page.click(".ask-vault-turn >> nth=-1 >> button.ask-vault-why-not");
	await page.waitForSelector(".prompt-input");
	await page.fill(".prompt-input", query);
	await waitFor(`${note} to be suggested first`, async () => (await page.locator(".suggestion-item").first().textContent()) === note);
	await page.press(".prompt-input", "Enter");
	await page.waitForSelector(".prompt-input", { state: "detached" });
}

/** Waits for `selector` or the view's error line, and fails with the sidecar's words if the error came. */
async function shownOrError(page, selector, errorSelector) {
	await page.waitForSelector(`${selector}, ${errorSelector}`);
	const error = page.locator(errorSelector);
	if ((await error.count()) > 0) assert.fail(`the sidecar answered an error: ${await error.first().textContent()}`);
}

const factValues = (page, list) =>
	page.locator(`.ask-vault-explain-result ${list} .ask-vault-fact`).evaluateAll((rows) =>
		Object.fromEntries(rows.map((r) => [r.querySelector("dt").textContent, r.querySelector("dd").textContent])),
	);

describe("Why not…? on an answered turn", () => {
	it("explains a picked note for the turn's searched query, as the sidecar reports it", async () => {
		const page = env.page;
		const notes = await vaultNotes(env.vault);
		await harness(page, (files) => window.askVaultHarness.addNotes(files), notes);
		await harness(page, () => window.askVaultHarness.command("open-chat"));
		await page.waitForSelector(".ask-vault-view .ask-vault-input");
		await ask(page, "Which port does Postgres listen on?");
		const turn = await waitTurn(page, ["done", "error"]);
		assert.equal(turn.status, "done", JSON.stringify(turn.error));
		await page.click(".ask-vault-inspector > summary");

		// A note the answer did not use, if the tiny vault has one (k is 8, so it may have sent them all).
		const sentPaths = new Set(turn.retrieval.sources.filter((s) => s.sent).map((s) => s.path));
		const note = notes.map((n) => n.path).find((p) => !sentPaths.has(p)) ?? "Recipes/Rye bread.md";
		await pickNote(page, path.basename(note, ".md").toLowerCase(), note);
		await shownOrError(page, ".ask-vault-explain-summary", ".ask-vault-explain-result .ask-vault-error");
		const request = { question: turn.retrieval.query, note, k: 8 };
		assert.deepEqual(await posted(page, "/api/explain"), [request]);
		const expected = await sidecarPost("/api/explain", request);

		assert.equal(await page.locator(".ask-vault-explain-summary").textContent(), expected.summary);
		assert.equal(expected.note.status, "indexed");
		// Explain runs the same search as the answer: its verdict agrees with what the turn actually sent.
		const sentInTurn = turn.retrieval.sources.some((s) => s.sent && s.path === note);
		assert.equal(expected.sent, sentInTurn, JSON.stringify(expected));
		const outcome = await factValues(page, ".ask-vault-explain-outcome");
		assert.equal(outcome["Sent to the model"], expected.sent ? "Yes" : "No");
		assert.equal(outcome["Matched terms"], expected.terms.matched.join(", ") || "None");
		const legs = await page.locator(".ask-vault-explain-legs tbody tr").evaluateAll((trs) =>
			trs.map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.textContent)),
		);
		assert.deepEqual(
			legs.map((l) => [l[0], l[2]]),
			["dense", "keyword", "fused"].map((leg, i) => [["Dense", "Keyword", "Fused"][i], String(expected.best[leg]?.rank ?? "–")]),
		);

		await page.locator(".ask-vault-explain").scrollIntoViewIfNeeded();
		const pane = await page.locator(".workspace-split.mod-right-split").boundingBox();
		const shot = path.join(SCREENSHOTS, "explain.png");
		await page.screenshot({ path: shot, clip: { x: pane.x, y: 0, width: pane.width, height: page.viewportSize().height } });
		await copyFile(shot, path.join(REPO_DIR, "docs", "screenshot-explain.png"));
	});

	it("a note the sidecar has never seen is said to be missing, with no legs", async () => {
		const page = env.page;
		const turn = await lastTurn(page);
		const ghost = "Drafts/Not saved yet.md";
		await harness(page, (p) => window.askVaultHarness.addNotes([{ path: p, text: "# Draft\n" }]), ghost);
		await pickNote(page, "not saved", ghost);
		await waitFor("the explanation of the missing note", async () =>
			(await page.locator(".ask-vault-explain-note").textContent()) === ghost,
		);
		const expected = await sidecarPost("/api/explain", { question: turn.retrieval.query, note: ghost, k: 8 });
		assert.equal(expected.note.status, "missing", JSON.stringify(expected.note));
		assert.equal(await page.locator(".ask-vault-explain-summary").textContent(), expected.summary);
		assert.equal((await factValues(page, ".ask-vault-explain-status")).Status, "No such note");
		assert.equal((await factValues(page, ".ask-vault-explain-reason")).Reason, `${expected.note.reason.detail} (no-such-note)`);
		assert.equal(await page.locator(".ask-vault-explain-legs").count(), 0);
		assert.equal((await factValues(page, ".ask-vault-explain-outcome"))["Sent to the model"], "No");
	});
});

/** The first related note the view lists: its title, and its path and passage's headings as its trail shows them. */
async function firstRelated(page) {
	const shown = await harness(page, () => window.askVaultHarness.related());
	const [first] = shown.entries;
	assert.ok(first, `no related note is listed: ${JSON.stringify(shown)}`);
	const [notePath, ...headingPath] = first.trail.split(" › ");
	return { title: first.title, path: notePath, heading_path: headingPath };
}

describe("Related notes for the active note", () => {
	it("follows the active note: related notes with their scores, never the note itself", async () => {
		const page = env.page;
		await harness(page, () => window.askVaultHarness.command("open-related"));
		await page.waitForSelector(".ask-vault-related-view");
		assert.equal(
			await page.locator(".ask-vault-related-message").textContent(),
			"Open a note to see the notes related to it.",
		);
		await harness(page, () => window.askVaultHarness.openNote("Homelab/Kodi.md"));
		await shownOrError(page, ".ask-vault-related-item", ".ask-vault-related-message.is-error");
		assert.deepEqual(await posted(page, "/api/related"), [{ path: "Homelab/Kodi.md" }]);
		const expected = await sidecarPost("/api/related", { path: "Homelab/Kodi.md" });
		assert.ok(expected.results.length >= 1, JSON.stringify(expected));
		const shown = await page.locator(".ask-vault-related-item").evaluateAll((items) =>
			items.map((li) => ({
				title: li.querySelector(".ask-vault-related-title").textContent,
				score: li.querySelector(".ask-vault-related-score").textContent,
				trail: li.querySelector(".ask-vault-related-trail").textContent,
			})),
		);
		assert.deepEqual(
			shown,
			expected.results.map((r) => ({
				title: r.title,
				score: r.score.toFixed(3),
				trail: [r.path, ...r.passage.heading_path].join(" › "),
			})),
		);
		assert.ok(expected.results.every((r) => r.path !== "Homelab/Kodi.md"), "never the note itself");
	});

	it("hovering an entry previews that note at its closest passage", async () => {
		const page = env.page;
		const first = await firstRelated(page);
		const heading = first.heading_path[first.heading_path.length - 1];
		const linktext = heading ? `${first.path}#${heading}` : first.path;
		await harness(page, () => window.askVaultHarness.enablePagePreview());
		await page.hover(".ask-vault-related-link >> nth=0");
		const payload = await waitFor("a hover-link event from the related view", () =>
			harness(page, () => {
				const h = window.askVaultHarness;
				const p = h.records.hoverLinks.filter((x) => x.source === "ask-vault-related").pop();
				return p ? { linktext: p.linktext, parentIsView: p.hoverParent === h.relatedView(), event: p.event.type } : null;
			}),
		);
		assert.deepEqual(payload, { linktext, parentIsView: true, event: "mouseover" });
		const popover = page.locator(".hover-popover");
		await popover.waitFor();
		assert.equal(await popover.getAttribute("data-linktext"), linktext);
		if (heading) assert.ok((await popover.textContent()).includes(heading));
		await page.screenshot({ path: path.join(SCREENSHOTS, "related.png") });
		await copyFile(path.join(SCREENSHOTS, "related.png"), path.join(REPO_DIR, "docs", "screenshot-related.png"));
	});

	it("clicking an entry opens the note at its passage, and the view follows the opened note", async () => {
		const page = env.page;
		const first = await firstRelated(page);
		const heading = first.heading_path[first.heading_path.length - 1];
		await page.click(".ask-vault-related-link >> nth=0");
		const opened = await harness(page, () => window.askVaultHarness.records.opened.slice(-1)[0]);
		assert.equal(opened.linktext, heading ? `${first.path}#${heading}` : first.path);
		assert.equal(opened.newLeaf, false);
		await waitFor("the view to follow the opened note", async () => {
			const shown = await harness(page, () => window.askVaultHarness.related());
			return shown.note === first.path && shown.message !== "Finding related notes…" && !shown.failed;
		});
		const asked = await posted(page, "/api/related");
		assert.deepEqual(asked.slice(-1), [{ path: first.path }]);
		const listed = await page.locator(".ask-vault-related-title").allTextContents();
		assert.ok(!listed.includes(first.title), `the opened note is not related to itself: ${listed.join(", ")}`);
		const last = await lastTurn(page);
		assert.equal(last.status, "done", "the chat is untouched");
	});
});
