// End-to-end: remote mode. The REAL sidecar serves loopback and, with `--remote`, TLS on 127.0.0.2 (another address
// of this machine stands in for the LAN one). The built dist/main.js runs as Obsidian on an Android phone: a phone's
// viewport and touch, the app's origin (http://localhost), Platform saying mobile, and no Node module at all.
// Chromium trusts exactly the sidecar's certificate (by its public key), as a phone that installed it does.
// It pairs from the QR code's link, asks, and gets a cited answer; then every way in that must be refused is
// tried. A last part drives the desktop's pinned fetch (Node's https) against the same sidecar.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import https from "node:https";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium } from "playwright-core";
import { CHROMIUM, freePort, run, vaultNotes, waitFor } from "./lib.mjs";
import { ask, harness, lastTurn, shot, statusText, waitTurn } from "./page.mjs";
import {
	ANDROID_ORIGIN,
	DEVICE,
	devicesJson,
	otherCertificate,
	pairJson,
	REMOTE_HOST,
	routeAndroidOrigin,
	spkiHash,
	storedRemote,
} from "./remote-lib.mjs";
import { ANSWER, ASKVAULT, CHROMIUM_ARGS, env, startSidecar, useE2E } from "./setup.mjs";

useE2E({ browser: false });

const mobile = {};

/** Points the phone's pairing at another address (same fingerprint and token), as if the sidecar moved there. */
async function pointAt(page, saved, token, address) {
	await harness(
		page,
		(o) => {
			const c = window.askVaultHarness.plugin.connection;
			c.remote.set({ ...o.saved, address: o.address }, o.token);
			c.reconnect();
		},
		{ saved, token, address },
	);
}

describe("Ask Vault on a phone against a remote-mode sidecar over TLS", () => {
	before(async () => {
		// The run's sidecar, restarted with remote mode on (same vault, data folder and loopback port).
		await env.sidecar.stop();
		mobile.port = await freePort();
		mobile.address = `${REMOTE_HOST}:${mobile.port}`;
		env.sidecar = await startSidecar({ extra: ["--remote", mobile.address] });
		const vaults = await readdir(path.join(env.dataDir, "vaults"));
		mobile.certFile = path.join(env.dataDir, "vaults", vaults[0], "remote", "cert.pem");
		mobile.other = await otherCertificate(path.join(env.tmp, "other-cert"));
		const trusted = [await spkiHash(mobile.certFile), await spkiHash(mobile.other.certFile)];
		mobile.context = await chromium.launchPersistentContext(path.join(env.tmp, "phone-profile"), {
			executablePath: CHROMIUM,
			headless: true,
			viewport: { width: 390, height: 844 },
			isMobile: true,
			hasTouch: true,
			deviceScaleFactor: 2,
			userAgent:
				"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
			args: [
				...CHROMIUM_ARGS,
				// The phone trusts the sidecar's certificate (installed) and the impostor's too: what the plugin does
				// with a certificate the platform accepts is what the fingerprint probe tests.
				`--ignore-certificate-errors-spki-list=${trusted.join(",")}`,
				// The page comes from Playwright's router, not an address, so Chromium would count it as public and
				// ask permission before it reaches 127.0.0.2 (Local Network Access); a phone's app serves its own page.
				"--disable-features=LocalNetworkAccessChecks",
			],
		});
		await routeAndroidOrigin(mobile.context);
		mobile.errors = [];
		mobile.page = mobile.context.pages()[0] ?? (await mobile.context.newPage());
		mobile.page.on("pageerror", (e) => mobile.errors.push(String(e)));
		await mobile.page.goto(`${ANDROID_ORIGIN}/`);
		// No local sidecar on a phone: the configured URL leads nowhere.
		await harness(mobile.page, (o) => window.askVaultHarness.boot(o), {
			sidecarUrl: "http://127.0.0.1:9",
			token: null,
			platform: "mobile",
		});
		await harness(mobile.page, (files) => window.askVaultHarness.addNotes(files), await vaultNotes(env.vault));
	});

	after(async () => {
		await mobile.context?.close().catch(() => undefined);
		assert.deepEqual(mobile.errors ?? [], [], "no uncaught errors in the phone's page");
	});

	it("the bundle loads as Obsidian mobile with no Node module", async () => {
		const required = await harness(mobile.page, () => [...new Set(window.askVaultHarness.required)]);
		assert.deepEqual(required, ["obsidian"]);
		const platform = await harness(mobile.page, () => window.askVaultHarness.obsidian.Platform);
		assert.equal(platform.isMobile, true);
		assert.equal(platform.isDesktopApp, false);
		assert.equal(await mobile.page.evaluate(() => typeof window.require), "undefined");
	});

	it("a wrong pairing code is refused in the dialog, in one sentence", async () => {
		const page = mobile.page;
		const real = await pairJson();
		const wrong = real.link.replace(/code=[^&]+/, "code=2222-2222");
		assert.equal(await harness(page, (l) => window.askVaultHarness.openLink(l), wrong), true);
		await page.waitForSelector(".ask-vault-remote-modal");
		await page.click(".ask-vault-remote-modal button.mod-cta");
		const error = page.locator(".ask-vault-pair-error");
		await waitFor("the pairing error", async () => ((await error.textContent()) ?? "").includes("not one this sidecar issued"));
		await page.click(".ask-vault-remote-modal button:not(.mod-cta)"); // Cancel
		assert.equal(await storedRemote(page), null);
	});

	it("pairs from the QR code's link over TLS and keeps the pairing on this device only", async () => {
		const page = mobile.page;
		const pairing = await pairJson();
		mobile.pairing = pairing;
		assert.equal(pairing.address, mobile.address);
		// Scanning the QR code with the camera opens this link in Obsidian.
		assert.equal(await harness(page, (l) => window.askVaultHarness.openLink(l), pairing.link), true);
		await page.waitForSelector(".ask-vault-remote-modal");
		const device = await page.locator("[data-ask-vault-field='device']").inputValue();
		assert.equal(device, DEVICE);
		await shot(page, "mobile-pair");
		await page.click(".ask-vault-remote-modal button.mod-cta");
		await waitFor("the paired notice", () =>
			harness(page, (d) => window.askVaultHarness.records.notices.some((n) => n.includes(`as "${d}"`)), DEVICE),
		);
		const stored = await storedRemote(page);
		assert.equal(stored.address, mobile.address);
		assert.equal(stored.fingerprint.replace(/:/g, ""), pairing.fingerprint.replace(/:/g, ""));
		assert.equal(stored.device, DEVICE);
		assert.equal(JSON.stringify(stored).includes("token"), false, "the token is not in local storage");
		const data = await harness(page, () => window.askVaultHarness.plugin.loadData());
		assert.equal(JSON.stringify(data ?? {}).includes(mobile.address), false, "data.json (synced) holds no pairing");
		const listed = await devicesJson();
		assert.deepEqual(
			listed.map((d) => d.name),
			[DEVICE],
		);
		await waitFor("the status bar to say ready", async () => /^Ask Vault: (ready|indexing)/.test(await statusText(page)), 30_000);
	});

	it("asks from the phone and gets a cited answer streamed over TLS", async () => {
		const page = mobile.page;
		await harness(page, () => window.askVaultHarness.command("open-chat"));
		await page.waitForSelector(".ask-vault-view .ask-vault-input");
		await ask(page, "Which port does Postgres listen on?");
		const turn = await waitTurn(page, ["done", "error"], 45_000);
		assert.equal(turn.status, "done", JSON.stringify(turn.error));
		assert.equal(turn.text, ANSWER);
		const sent = turn.retrieval.sources.filter((s) => s.sent);
		assert.ok(sent.length >= 2, "sources were sent");
		const cites = await page.locator(".ask-vault-answer-body a.ask-vault-citation").allTextContents();
		assert.deepEqual(cites, ["[1]", "[2]", "[1]", "[2]"]);
		const asked = await harness(page, () => window.askVaultHarness.requests.filter((r) => r.url.endsWith("/api/ask")).map((r) => r.url));
		assert.deepEqual(asked, [`https://${mobile.address}/api/ask`]);
		await shot(page, "mobile-answer");

		// A citation opens this device's synced copy of the note.
		await page.click(".ask-vault-answer-body a.ask-vault-citation >> nth=0");
		const opened = await harness(page, () => window.askVaultHarness.records.opened.slice(-1)[0]);
		const first = turn.retrieval.sources.find((s) => s.n === 1);
		assert.ok(opened.linktext.startsWith(first.path), JSON.stringify(opened));
		const used = await devicesJson();
		assert.ok(used[0].last_used !== null, "the sidecar recorded the device's use");
	});

	it("the inspector, search and related notes work against the remote sidecar", async () => {
		const page = mobile.page;
		const turn = await lastTurn(page);
		await page.click(".ask-vault-inspector > summary");
		const rows = await page.locator(".ask-vault-ranking tbody tr:not(.ask-vault-cut)").count();
		assert.equal(rows, turn.retrieval.sources.length);

		await harness(page, () => window.askVaultHarness.command("search"));
		await page.fill(".prompt-input", "postgres port");
		await page.waitForSelector(".suggestion-item");
		const trails = await page.locator(".suggestion-item .ask-vault-search-trail").allTextContents();
		assert.ok(trails.some((t) => t.startsWith("Homelab/Postgres.md")), trails.join(" | "));
		await page.keyboard.press("Escape");
		await harness(page, () => document.querySelectorAll(".modal-container").forEach((m) => m.remove()));

		await harness(page, () => window.askVaultHarness.command("open-related"));
		await page.waitForSelector(".ask-vault-related-view");
		await harness(page, () => window.askVaultHarness.openNote("Homelab/Kodi.md"));
		await page.waitForSelector(".ask-vault-related-item, .ask-vault-related-message.is-error");
		assert.equal(await page.locator(".ask-vault-related-message.is-error").count(), 0);
		const remoteCalls = await harness(page, () =>
			window.askVaultHarness.requests.map((r) => new URL(r.url, location.href)).filter((u) => /\/api\/(search|related)$/.test(u.pathname)).map((u) => u.origin),
		);
		assert.ok(remoteCalls.length >= 2, "search and related asked the sidecar");
		assert.deepEqual([...new Set(remoteCalls)], [`https://${mobile.address}`]);
		await harness(page, () => window.askVaultHarness.command("open-chat"));
	});

	it("a note missing from this device's copy is said to be missing, not created", async () => {
		const page = mobile.page;
		const turn = await lastTurn(page);
		const first = turn.retrieval.sources.find((s) => s.n === 1);
		await harness(page, (p) => window.askVaultHarness.app.vault.removeFile__(p), first.path);
		const before = await harness(page, () => window.askVaultHarness.records.opened.length);
		await page.click(".ask-vault-answer-body a.ask-vault-citation >> nth=0");
		const after = await harness(page, () => window.askVaultHarness.records.opened.length);
		assert.equal(after, before);
		const notices = await harness(page, () => window.askVaultHarness.records.notices);
		assert.ok(notices.some((n) => n.includes("is not in this device's copy of the vault")), notices.join("\n"));
	});

	it("probe: a sidecar whose certificate is not the paired one is refused, and the pane says why", async () => {
		const page = mobile.page;
		// An impostor at another port with a certificate the phone trusts but this device never paired with.
		const impostorPort = await freePort();
		const impostor = https.createServer({ cert: mobile.other.cert, key: mobile.other.key }, (req, res) => {
			mobile.impostorSaw = (mobile.impostorSaw ?? 0) + 1;
			res.writeHead(200, {
				"content-type": "application/json",
				"access-control-allow-origin": ANDROID_ORIGIN,
				"access-control-allow-headers": "Authorization, Content-Type",
			});
			res.end(JSON.stringify({ ok: true, fingerprint: "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF" }));
		});
		await new Promise((resolve) => impostor.listen(impostorPort, REMOTE_HOST, resolve));
		try {
			const saved = await storedRemote(page);
			const token = await harness(page, () => window.askVaultHarness.plugin.connection.remote.current.token);
			await pointAt(page, saved, token, `${REMOTE_HOST}:${impostorPort}`);
			await ask(page, "Which port does Postgres listen on?");
			const turn = await waitTurn(page, ["error", "done"], 30_000);
			assert.equal(turn.status, "error");
			assert.match(turn.error.message, /not the one you paired with/);
			const asked = await harness(page, (a) => window.askVaultHarness.requests.filter((r) => r.url.includes(a) && !r.url.endsWith("/api/health")), `${REMOTE_HOST}:${impostorPort}`);
			assert.deepEqual(asked, [], "nothing but the health check went to the impostor");
			await shot(page, "mobile-mismatch");
			await pointAt(page, saved, token, saved.address);
		} finally {
			impostor.close();
		}
	});

	it("probe: a certificate the phone does not trust fails the TLS check, and the pane says so", async () => {
		const page = mobile.page;
		// A third certificate, not in the phone's trusted list.
		const stranger = await otherCertificate(path.join(env.tmp, "stranger-cert"));
		const port = await freePort();
		const server = https.createServer({ cert: stranger.cert, key: stranger.key }, (_req, res) => {
			mobile.strangerSaw = (mobile.strangerSaw ?? 0) + 1;
			res.end("{}");
		});
		await new Promise((resolve) => server.listen(port, REMOTE_HOST, resolve));
		try {
			const saved = await storedRemote(page);
			const token = await harness(page, () => window.askVaultHarness.plugin.connection.remote.current.token);
			await pointAt(page, saved, token, `${REMOTE_HOST}:${port}`);
			await ask(page, "Which port does Postgres listen on?");
			const turn = await waitTurn(page, ["error", "done"], 30_000);
			assert.equal(turn.status, "error");
			assert.match(turn.error.message, /could not make a trusted encrypted connection/);
			assert.equal(mobile.strangerSaw ?? 0, 0, "no HTTP request reached a server the phone does not trust");
			await pointAt(page, saved, token, saved.address);
		} finally {
			server.close();
		}
	});

	it("probe: every other way in is refused by the real sidecar", async () => {
		const base = `https://${mobile.address}`;
		const agent = new https.Agent({ ca: await readFile(mobile.certFile) });
		// Each probe comes from an address of its own (as another device would), so its failures count apart from
		// the phone's: 127.0.0.3 here, 127.0.0.4 for the guesser below.
		const call = (route, { method = "GET", headers = {}, body, from = "127.0.0.3" } = {}) =>
			new Promise((resolve, reject) => {
				// The CA is the sidecar's own certificate; the name check is off so a foreign Host header can be sent.
				const options = { method, headers, agent, localAddress: from, checkServerIdentity: () => undefined };
				const req = https.request(`${base}${route}`, options, (res) => {
					let text = "";
					res.setEncoding("utf8");
					res.on("data", (c) => (text += c));
					res.on("end", () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : null }));
				});
				req.on("error", reject);
				req.end(body);
			});
		const json = { "Content-Type": "application/json" };
		// The loopback token does not open the remote listener; neither does no token or a made-up one.
		assert.equal((await call("/api/status", { headers: { Authorization: `Bearer ${env.token}` } })).status, 401);
		assert.equal((await call("/api/status")).status, 401);
		// A foreign Origin or Host.
		const pairing = await pairJson();
		const token = (
			await call("/api/pair", { method: "POST", headers: json, body: JSON.stringify({ code: pairing.code, device: "Probe" }) })
		).body.token;
		const auth = { Authorization: `Bearer ${token}` };
		assert.equal((await call("/api/status", { headers: auth })).status, 200);
		assert.equal((await call("/api/status", { headers: { ...auth, Origin: "https://evil.example" } })).status, 403);
		assert.equal((await call("/api/status", { headers: { ...auth, Host: `evil.example:${mobile.port}` } })).status, 403);
		// A reused code; an expired one cannot be made here without waiting (tests/api/test_remote_probes.py moves a clock).
		const reused = await call("/api/pair", { method: "POST", headers: json, body: JSON.stringify({ code: pairing.code, device: "Again" }) });
		assert.equal(reused.status, 403);
		assert.equal(reused.body.error.code, "pairing_refused");
		assert.match(reused.body.error.message, /already used/);
		// Plain HTTP to the TLS port gets no HTTP answer.
		const plain = await fetch(`http://${mobile.address}/api/health`).then(
			(r) => `HTTP ${r.status}`,
			(e) => `refused: ${e.cause?.code ?? e.message}`,
		);
		assert.match(plain, /^refused/);
		// Repeated failures from one address: refused for a minute (and logged), while other devices go on.
		const guess = { Authorization: "Bearer not-a-device-token-0123456789abcdefghijklmnopq" };
		for (let i = 0; i < 5; i += 1) assert.equal((await call("/api/status", { headers: guess, from: "127.0.0.4" })).status, 401);
		const blocked = await call("/api/status", { headers: auth, from: "127.0.0.4" });
		assert.equal(blocked.status, 429);
		assert.equal(blocked.body.error.code, "too_many_failures");
		assert.equal((await call("/api/status", { headers: auth })).status, 200);
		await waitFor("the sidecar to log the guesser", () => env.sidecar.lines.some((l) => l.includes("from 127.0.0.4")));
		assert.equal(env.sidecar.lines.some((l) => l.includes("not-a-device-token")), false, "no token in the log");
		// Revoking the probe's device ends its token at once.
		await run(ASKVAULT, ["revoke", "--vault", env.vault, "--data-dir", env.dataDir, "Probe"]);
		assert.equal((await call("/api/status", { headers: auth })).status, 401);
	});

	it("desktop: the pinned fetch talks to the paired sidecar and refuses another certificate before sending", async () => {
		const { pinnedFetch } = await import("./.build/desktop.mjs");
		const pairing = await pairJson();
		const pinned = pinnedFetch({ address: mobile.address, fingerprint: pairing.fingerprint });
		const paired = await pinned(`https://${mobile.address}/api/pair`, {
			method: "POST",
			headers: { "Content-Type": "application/json", Origin: "app://obsidian.md" },
			body: JSON.stringify({ code: pairing.code, device: "Second desktop" }),
		});
		assert.equal(paired.status, 200);
		const { token } = await paired.json();
		const status = await pinned(`https://${mobile.address}/api/status`, { headers: { Authorization: `Bearer ${token}` } });
		assert.equal(status.status, 200);
		assert.equal((await status.json()).vault.notes >= 5, true);

		const wrongPin = pinnedFetch({ address: mobile.address, fingerprint: "00".repeat(32) });
		await assert.rejects(
			wrongPin(`https://${mobile.address}/api/status`, { headers: { Authorization: `Bearer ${token}` } }),
			(e) => e.code === "certificate_mismatch" && /not the one you paired with/.test(e.message),
		);
		await run(ASKVAULT, ["revoke", "--vault", env.vault, "--data-dir", env.dataDir, "Second desktop"]);
	});

	it("probe: a revoked phone is told to pair again", async () => {
		const page = mobile.page;
		await run(ASKVAULT, ["revoke", "--vault", env.vault, "--data-dir", env.dataDir, DEVICE]);
		await ask(page, "Which port does Postgres listen on?");
		const turn = await waitTurn(page, ["error", "done"], 30_000);
		assert.equal(turn.status, "error");
		assert.match(turn.error.message, /not paired with the sidecar, or was revoked/);
	});

	it("when the sidecar is gone the pane says so in one sentence, with when it was last reached", async () => {
		const page = mobile.page;
		await env.sidecar.stop();
		await ask(page, "Which port does Postgres listen on?");
		const turn = await waitTurn(page, ["error", "done"], 45_000);
		assert.equal(turn.status, "error");
		assert.match(turn.error.message, new RegExp(`cannot reach the sidecar at ${mobile.address.replace(/\./g, "\\.")} \\(last reached \\d\\d:\\d\\d`));
		const line = await page.locator(".ask-vault-connection").textContent();
		assert.match(line ?? "", /last reached \d\d:\d\d/);
		await shot(page, "mobile-unreachable");
	});
});
