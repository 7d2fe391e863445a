// End-to-end: a hostile answer (remote images, an external link) from a fake Ollama behind the REAL sidecar, in
// headless Chromium: nothing remote ever loads, while streaming or after.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { freePort, Proc, REPO_DIR, run, waitFor } from "./lib.mjs";
import { ask, harness, shot } from "./page.mjs";
import { ASKVAULT, env, HOSTILE, HOSTILE_SHOWN, PYTHON, sidecarStatus, startSidecar, useE2E } from "./setup.mjs";

useE2E({ sidecar: false });

describe("a hostile answer: remote images and links never load, streaming or not", () => {
	const hostile = {};

	before(async () => {
		// A second fake Ollama whose answer is hostile, behind a second sidecar on the same vault (own data folder).
		hostile.ollama = new Proc(
			"fake-ollama-hostile",
			PYTHON,
			["-m", "tests.fakes.ollama_server", "--port", "0", "--token-delay", "0.05", "--answer", HOSTILE],
			{ cwd: REPO_DIR, logDir: env.tmp },
		);
		const ollamaUrl = (await hostile.ollama.waitForLine(/^READY (\S+)/))[1];
		const dataDir = path.join(env.tmp, "data-hostile");
		const port = await freePort();
		hostile.url = `http://127.0.0.1:${port}`;
		hostile.sidecar = await startSidecar({ dataDir, port, ollamaUrl }, "sidecar-hostile");
		hostile.token = (await run(ASKVAULT, ["token", "--vault", env.vault, "--data-dir", dataDir])).trim().split("\n").pop().trim();
		await waitFor(
			"the hostile sidecar's first index run",
			async () => {
				const s = await sidecarStatus(hostile.url, hostile.token);
				return s.index.state === "idle" && s.vault.notes >= 5;
			},
			60_000,
		);
		hostile.requests = [];
		hostile.errors = [];
		hostile.page = await env.browser.newPage();
		hostile.page.on("pageerror", (e) => hostile.errors.push(String(e)));
		// Any request for the attacker's host is recorded and refused (the sandbox has no network anyway).
		await hostile.page.route(/evil\.example/, (route) => {
			hostile.requests.push(route.request().url());
			return route.abort();
		});
		await hostile.page.goto(`${env.static.origin}/`);
		await harness(hostile.page, (o) => window.askVaultHarness.boot(o), { sidecarUrl: hostile.url, token: hostile.token });
		await harness(hostile.page, () => window.askVaultHarness.command("open-chat"));
		await hostile.page.waitForSelector(".ask-vault-view .ask-vault-input");
	});

	after(async () => {
		await hostile.page?.close().catch(() => undefined);
		await hostile.sidecar?.stop();
		await hostile.ollama?.stop();
	});

	it("the page's renderer does load a raw remote image (so the checks below would see one)", async () => {
		const srcs = await harness(hostile.page, () => window.askVaultHarness.imagesIn("![control](about:blank#control)"));
		assert.deepEqual(srcs, ["about:blank#control"]);
	});

	it("streams the answer inert: no <img>, no request to the host, the neutralised form and a notice", async () => {
		const page = hostile.page;
		await harness(page, () => {
			window.stopImages = window.askVaultHarness.watchImages();
		});
		await ask(page, "Which port does Postgres listen on?");
		// Look at the pane again and again while the words arrive.
		const seen = [];
		let turn = null;
		await waitFor(
			"the hostile answer to finish",
			async () => {
				const snapshot = await harness(page, () => {
					const turns = window.askVaultHarness.turns();
					const bodies = document.querySelectorAll(".ask-vault-answer-body");
					return {
						turn: turns[turns.length - 1] ?? null,
						body: bodies[bodies.length - 1]?.textContent ?? "",
						images: Array.from(document.querySelectorAll("img")).map((img) => img.getAttribute("src")),
					};
				});
				seen.push({ status: snapshot.turn?.status, body: snapshot.body, images: snapshot.images });
				turn = snapshot.turn;
				return turn && ["done", "error"].includes(turn.status) ? turn : null;
			},
			30_000,
			25,
		);
		assert.equal(turn.status, "done", JSON.stringify(turn.error));
		const streaming = seen.filter((s) => s.status === "streaming" && s.body !== "");
		assert.ok(streaming.length >= 10, `looked ${streaming.length} times while streaming`);
		assert.ok(new Set(streaming.map((s) => s.body)).size >= 5, "the answer grew while it was watched");
		assert.deepEqual(seen.flatMap((s) => s.images), [], "no <img> at any look");
		for (const { body } of seen) {
			assert.ok(!body.includes("![") && !body.includes("](") && !body.includes("secret"), `raw Markdown shown: ${body}`);
		}
		assert.ok(
			streaming.some((s) => s.body.includes("[image removed: evil.example]")),
			"the neutralised form showed while streaming",
		);

		await waitFor("the final answer on screen", async () => (await page.locator(".ask-vault-answer-body").last().textContent()) === HOSTILE_SHOWN);
		assert.deepEqual(turn.done.neutralised, [
			{ kind: "image", target: "evil.example" },
			{ kind: "image", target: "evil.example" },
			{ kind: "link", target: "evil.example" },
		]);
		assert.equal(turn.done.sanitized_answer, true);
		const body = page.locator(".ask-vault-answer-body").last();
		assert.deepEqual(await body.locator("code").allTextContents(), ["https://evil.example"]);
		assert.equal(await body.locator("img, a[href*='evil']").count(), 0);
		assert.deepEqual(await body.locator("a.ask-vault-citation").allTextContents(), ["[1]", "[2]"]);
		const notice = page.locator(".ask-vault-answer-notice").last();
		assert.equal(await notice.textContent(), "Made inert: 2 remote images (evil.example), 1 external link (evil.example).");
		assert.ok(await notice.isVisible());
		await shot(page, "hostile-answer");

		const images = await harness(page, () => window.stopImages());
		assert.deepEqual(images, [], "no <img> ever entered the page");
		assert.deepEqual(hostile.requests, [], "nothing asked evil.example for anything");
		assert.deepEqual(hostile.errors, [], "no uncaught errors in the page");
	});
});
