// Remote mode's e2e helpers: the phone's address, origin and device name, certificates and their public-key hashes
// (as Chromium takes them), the CLI's pairing and device listing, and the Android origin routed to the page server.
import { readFile } from "node:fs/promises";
import { run } from "./lib.mjs";
import { harness } from "./page.mjs";
import { ASKVAULT, env, PYTHON } from "./setup.mjs";

export const REMOTE_HOST = "127.0.0.2";
export const ANDROID_ORIGIN = "http://localhost";
export const DEVICE = "Obsidian on Android phone";

/** base64 SHA-256 of a certificate's public key, the form Chromium's --ignore-certificate-errors-spki-list takes. */
export async function spkiHash(certFile) {
	const code =
		"import base64,hashlib,sys\n" +
		"from cryptography import x509\n" +
		"from cryptography.hazmat.primitives import serialization as s\n" +
		"c = x509.load_pem_x509_certificate(open(sys.argv[1], 'rb').read())\n" +
		"spki = c.public_key().public_bytes(s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo)\n" +
		"print(base64.b64encode(hashlib.sha256(spki).digest()).decode())";
	return (await run(PYTHON, ["-c", code, certFile])).trim();
}

/** A second self-signed certificate for 127.0.0.2 (another sidecar, or an impostor), made by the sidecar's own code. */
export async function otherCertificate(folder) {
	const code =
		"import sys\nfrom pathlib import Path\n" +
		"from askvault.api.remote.certificate import load_or_create_certificate\n" +
		"c = load_or_create_certificate(Path(sys.argv[1]), ['127.0.0.2'])\nprint(c.cert_path); print(c.key_path)";
	const [cert, key] = (await run(PYTHON, ["-c", code, folder])).trim().split("\n");
	return { cert: await readFile(cert), key: await readFile(key), certFile: cert };
}

export async function pairJson() {
	const out = await run(ASKVAULT, ["pair", "--vault", env.vault, "--data-dir", env.dataDir, "--json"]);
	return JSON.parse(out.trim().split("\n").pop());
}

export async function devicesJson() {
	const out = await run(ASKVAULT, ["devices", "--vault", env.vault, "--data-dir", env.dataDir, "--json"]);
	return JSON.parse(out.trim().split("\n").pop());
}


/** Serves the e2e page at Obsidian Android's origin (http://localhost) from the run's static server. */
export async function routeAndroidOrigin(context) {
	await context.route(`${ANDROID_ORIGIN}/**`, async (route) => {
		const url = new URL(route.request().url());
		const res = await fetch(`${env.static.origin}${url.pathname}`);
		await route.fulfill({
			status: res.status,
			headers: { "content-type": res.headers.get("content-type") ?? "application/octet-stream" },
			body: Buffer.from(await res.arrayBuffer()),
		});
	});
}

export async function storedRemote(page) {
	return harness(page, () => window.askVaultHarness.app.loadLocalStorage("ask-vault-remote"));
}
