// Helpers for the e2e run: repository paths, child processes (fake Ollama, the real sidecar), the static server.
import { spawn, execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));
export const PLUGIN_DIR = path.resolve(E2E_DIR, "..");
export const REPO_DIR = path.resolve(PLUGIN_DIR, "..");
export const VENV_DIR = process.env.ASKVAULT_VENV ?? path.join(REPO_DIR, ".venv");
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const SCREENSHOTS = path.join(E2E_DIR, "screenshots");

export async function tempDir(prefix) {
	return mkdtemp(path.join(os.tmpdir(), prefix));
}

/** A copy of e2e/vault (without its README) in a temp folder. */
export async function copyVault(into) {
	const vault = path.join(into, "E2E Vault");
	await cp(path.join(E2E_DIR, "vault"), vault, {
		recursive: true,
		filter: (src) => path.basename(src) !== "README.md",
	});
	return vault;
}

export async function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(what, fn, timeoutMs = 20_000, everyMs = 100) {
	const start = Date.now();
	let last;
	for (;;) {
		try {
			const v = await fn();
			if (v) return v;
		} catch (e) {
			last = e;
		}
		if (Date.now() - start > timeoutMs) {
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${last.message})` : ""}`);
		}
		await sleep(everyMs);
	}
}

/** A child process whose output goes to a log file; `tail()` returns its last lines for failure messages. */
export class Proc {
	constructor(name, command, args, { cwd = REPO_DIR, logDir } = {}) {
		this.name = name;
		this.lines = [];
		this.log = logDir ? createWriteStream(path.join(logDir, `${name}.log`)) : null;
		this.child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PYTHONUNBUFFERED: "1" } });
		this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
		this.spawnError = new Promise((resolve) => this.child.once("error", resolve));
		for (const stream of [this.child.stdout, this.child.stderr]) {
			stream.setEncoding("utf8");
			stream.on("data", (chunk) => {
				this.log?.write(chunk);
				this.lines.push(...chunk.split("\n").filter((l) => l.trim() !== ""));
				if (this.lines.length > 400) this.lines.splice(0, this.lines.length - 400);
			});
		}
	}

	get running() {
		return this.child.exitCode === null && this.child.signalCode === null;
	}

	tail(n = 15) {
		return this.lines.slice(-n).join("\n");
	}

	async waitForLine(regex, timeoutMs = 20_000) {
		return waitFor(
			`${this.name} to print ${regex}`,
			() => {
				if (!this.running) throw new Error(`${this.name} exited:\n${this.tail()}`);
				for (const line of this.lines) {
					const m = regex.exec(line);
					if (m) return m;
				}
				return null;
			},
			timeoutMs,
		);
	}

	async stop() {
		if (!this.running) return this.exited;
		this.child.kill("SIGTERM");
		const timer = setTimeout(() => this.running && this.child.kill("SIGKILL"), 5000);
		const result = await this.exited;
		clearTimeout(timer);
		this.log?.end();
		return result;
	}
}

export async function run(command, args, options = {}) {
	const { stdout } = await promisify(execFile)(command, args, { cwd: REPO_DIR, timeout: 60_000, ...options });
	return stdout;
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json" };

/** Serves the e2e page on 127.0.0.1: harness, plugin.js (dist/main.js wrapped like Obsidian's loader), styles. */
export async function startStaticServer() {
	const files = {
		"/": path.join(E2E_DIR, "harness", "index.html"),
		"/app.css": path.join(E2E_DIR, "harness", "app.css"),
		"/harness.js": path.join(E2E_DIR, ".build", "harness.js"),
		"/styles.css": path.join(PLUGIN_DIR, "styles.css"),
		"/manifest.json": path.join(REPO_DIR, "manifest.json"),
	};
	const server = createServer(async (req, res) => {
		const url = new URL(req.url ?? "/", "http://127.0.0.1");
		try {
			let body;
			let type;
			if (url.pathname === "/plugin.js") {
				const main = await readFile(path.join(PLUGIN_DIR, "dist", "main.js"), "utf8");
				// Obsidian evaluates main.js as the body of function(require, module, exports).
				body = `window.askVaultMain = function (require, module, exports) {\n${main}\n};\n//# sourceURL=plugin:ask-vault`;
				type = TYPES[".js"];
			} else if (files[url.pathname]) {
				body = await readFile(files[url.pathname]);
				type = TYPES[path.extname(files[url.pathname])] ?? "application/octet-stream";
			} else {
				res.writeHead(404).end("not found");
				return;
			}
			res.writeHead(200, { "Content-Type": type, "Cache-Control": "no-store" }).end(body);
		} catch (e) {
			res.writeHead(500).end(String(e));
		}
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address();
	return { server, port, origin: `http://127.0.0.1:${port}` };
}

export async function removeDir(dir) {
	if (dir) await rm(dir, { recursive: true, force: true });
}

/** Every note of a vault copy, as the shim's Vault should list them. */
export async function vaultNotes(vault) {
	const entries = await readdir(vault, { recursive: true, withFileTypes: true });
	const files = entries.filter((e) => e.isFile() && e.name.endsWith(".md"));
	return Promise.all(
		files.map(async (e) => {
			const full = path.join(e.parentPath, e.name);
			return { path: path.relative(vault, full).split(path.sep).join("/"), text: await readFile(full, "utf8") };
		}),
	);
}
