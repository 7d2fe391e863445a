// @vitest-environment node
/** The desktop's pinned fetch against a real local HTTPS server with a certificate made for the test (openssl). */
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpsServer, type Server } from "node:https";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pinnedFetch } from "../src/desktop/pinnedFetch";
import { isAbort, SidecarClient, SidecarError } from "../src/sidecar/client";
import { RemoteTransport } from "../src/sidecar/remote";
import { askLines, collect } from "./helpers";

let dir = "";
let key = "";
let cert = "";
let fingerprint = "";
/** A well-formed fingerprint of no certificate in this test. */
const OTHER = Array.from({ length: 32 }, () => "AB").join(":");

beforeAll(() => {
	dir = mkdtempSync(path.join(tmpdir(), "ask-vault-pin-"));
	const keyFile = path.join(dir, "key.pem");
	const certFile = path.join(dir, "cert.pem");
	// Node has no certificate generator; openssl is on every machine the tests run on (and in CI).
	execFileSync("openssl", [
		"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
		"-subj", "/CN=test", "-keyout", keyFile, "-out", certFile,
	], { stdio: "ignore" });
	key = readFileSync(keyFile, "utf8");
	cert = readFileSync(certFile, "utf8");
	fingerprint = new X509Certificate(cert).fingerprint256;
});

afterAll(() => {
	rmSync(dir, { recursive: true, force: true });
});

interface Running {
	server: Server;
	address: string;
	requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
	/** Bytes of application data the server received on any connection (a refused request sends none). */
	received: () => number;
	/** Resolves when the first TCP connection to the server has closed. */
	closedSockets: Promise<void>;
}

const servers: (Server | TcpServer)[] = [];

afterEach(async () => {
	await Promise.all(
		servers.splice(0).map((s) => {
			if ("closeAllConnections" in s) s.closeAllConnections();
			return new Promise<void>((resolve) => s.close(() => resolve()));
		}),
	);
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<Running> {
	const requests: Running["requests"] = [];
	let received = 0;
	let closed: () => void = () => undefined;
	const closedSockets = new Promise<void>((resolve) => (closed = resolve));
	const server = createHttpsServer({ key, cert }, (req, res) => {
		let body = "";
		req.setEncoding("utf8");
		req.on("data", (chunk: string) => (body += chunk));
		req.on("end", () => {
			requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
			handler(req, res, body);
		});
	});
	// Application data arrives only on a finished TLS session; a refused one ends before the server's handshake does.
	server.on("secureConnection", (socket) => socket.on("data", (chunk: Buffer) => (received += chunk.length)));
	server.on("connection", (socket: Socket) => socket.on("close", () => closed()));
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return { server, address: `127.0.0.1:${port}`, requests, received: () => received, closedSockets };
}

function ndjsonChunks(res: ServerResponse, lines: unknown[], gate: Promise<void>): void {
	res.writeHead(200, { "Content-Type": "application/x-ndjson" });
	const [first, ...rest] = lines;
	res.write(`${JSON.stringify(first)}\n`);
	// The rest only once the client has read the first line: proof that it streams rather than buffers.
	void gate.then(() => {
		for (const line of rest) res.write(`${JSON.stringify(line)}\n`);
		res.end();
	});
}

describe("pinnedFetch", () => {
	it("with the right pin, sends the request and streams a chunked body as it comes", async () => {
		let release: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (release = resolve));
		const lines = askLines();
		const running = await serve((_req, res) => ndjsonChunks(res, lines, gate));
		const fetchFn = pinnedFetch({ address: running.address, fingerprint: fingerprint.toLowerCase() });
		const res = await fetchFn(`https://${running.address}/api/ask`, {
			method: "POST",
			headers: { Authorization: "Bearer device-token", "Content-Type": "application/json" },
			body: JSON.stringify({ question: "kodi?" }),
		});
		expect(res.status).toBe(200);
		expect(res.headers.get("content-type")).toBe("application/x-ndjson");
		const reader = res.body!.getReader();
		const first = await reader.read();
		expect(new TextDecoder().decode(first.value)).toBe(`${JSON.stringify(lines[0])}\n`);
		release();
		let rest = "";
		for (;;) {
			const chunk = await reader.read();
			if (chunk.done) break;
			rest += new TextDecoder().decode(chunk.value, { stream: true });
		}
		expect(rest.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown)).toEqual(lines.slice(1));
		expect(running.requests).toEqual([
			expect.objectContaining({ method: "POST", url: "/api/ask", body: JSON.stringify({ question: "kodi?" }) }),
		]);
		expect(running.requests[0]?.headers.authorization).toBe("Bearer device-token");
		expect(running.requests[0]?.headers.host).toBe(running.address);
	});

	it("with a wrong pin refuses before the server sees one byte of the request", async () => {
		let handled = 0;
		const running = await serve((_req, res) => {
			handled += 1;
			res.end("{}");
		});
		const fetchFn = pinnedFetch({ address: running.address, fingerprint: OTHER });
		const error = await fetchFn(`https://${running.address}/api/status`, {
			method: "GET",
			headers: { Authorization: "Bearer device-token" },
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(SidecarError);
		expect(error).toMatchObject({ kind: "network", code: "certificate_mismatch" });
		const short = fingerprint.split(":").slice(0, 4).join(":");
		expect((error as Error).message).toBe(
			`The sidecar at ${running.address} presented a certificate that is not the one you paired with (SHA-256 ${short}…); if you made a new one, pair again.`,
		);
		await running.closedSockets;
		expect(handled).toBe(0);
		expect(running.requests).toEqual([]);
		expect(running.received()).toBe(0);
	});

	it("aborting mid-stream closes the connection and rejects the read with an abort", async () => {
		let serverSawClose: () => void = () => undefined;
		const closed = new Promise<void>((resolve) => (serverSawClose = resolve));
		const running = await serve((_req, res) => {
			res.writeHead(200, { "Content-Type": "application/x-ndjson" });
			res.write('{"type":"heartbeat"}\n');
			res.on("close", () => serverSawClose());
		});
		const controller = new AbortController();
		const fetchFn = pinnedFetch({ address: running.address, fingerprint });
		const res = await fetchFn(`https://${running.address}/api/events`, { method: "GET", signal: controller.signal });
		const reader = res.body!.getReader();
		expect((await reader.read()).done).toBe(false);
		const pending = reader.read();
		controller.abort();
		const error = await pending.catch((e: unknown) => e);
		expect(isAbort(error)).toBe(true);
		await closed;
	});

	it("aborting before the answer rejects with an abort, and an aborted signal sends nothing", async () => {
		const running = await serve(() => {
			// Never answers.
		});
		const fetchFn = pinnedFetch({ address: running.address, fingerprint });
		const controller = new AbortController();
		const pending = fetchFn(`https://${running.address}/api/search`, { method: "POST", body: "{}", signal: controller.signal });
		while (running.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
		controller.abort();
		expect(isAbort(await pending.catch((e: unknown) => e))).toBe(true);

		const before = new AbortController();
		before.abort();
		expect(isAbort(await fetchFn(`https://${running.address}/api/search`, { signal: before.signal }).catch((e: unknown) => e))).toBe(true);
		expect(running.requests.length).toBe(1);
	});

	it("gives up connecting to a server that never completes the TLS handshake", async () => {
		const sockets: Socket[] = [];
		const silent = createTcpServer((socket) => void sockets.push(socket));
		servers.push(silent);
		await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
		const { port } = silent.address() as AddressInfo;
		const fetchFn = pinnedFetch({ address: `127.0.0.1:${port}`, fingerprint }, { connectTimeoutMs: 200 });
		const error = await fetchFn(`https://127.0.0.1:${port}/api/health`, { method: "GET" }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(Error);
		expect((error as Error).message).toContain("no answer within");
		sockets.forEach((s) => s.destroy());
	});
});

describe("the client through the remote transport on desktop", () => {
	const timers = { setTimeout: (fn: () => void, ms: number) => Number(setTimeout(fn, ms)), clearTimeout: (id: number) => clearTimeout(id) };

	function remoteClient(address: string, pin: string, reached: number[] = []) {
		const transport = new RemoteTransport(pinnedFetch({ address, fingerprint: pin }), { address, fingerprint: pin }, {
			checkHealth: false,
			timers,
			now: () => Date.now(),
			lastReached: () => null,
			reached: () => void reached.push(1),
		});
		return new SidecarClient(() => ({ baseUrl: transport.baseUrl, token: "device-token" }), transport.fetch);
	}

	it("streams an answer from the paired sidecar, counting each chunk as reached", async () => {
		const lines = askLines();
		const running = await serve((_req, res) => ndjsonChunks(res, lines, Promise.resolve()));
		const reached: number[] = [];
		const events = await collect(remoteClient(running.address, fingerprint, reached).ask({ question: "kodi?" }));
		expect(events.map((e) => e.type)).toEqual(lines.map((l) => (l as { type: string }).type));
		expect(reached.length).toBeGreaterThan(1);
	});

	it("says in one sentence when nothing listens at the address", async () => {
		const closed = createTcpServer();
		await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const error = await remoteClient(`127.0.0.1:${port}`, fingerprint).status().catch((e: unknown) => e);
		expect(error).toMatchObject({ kind: "network", code: "remote_unreachable" });
		expect((error as Error).message).toMatch(
			new RegExp(`^Ask Vault cannot reach the sidecar at 127\\.0\\.0\\.1:${port} \\(not reached yet; connect ECONNREFUSED [^)]*\\); check that it runs`),
		);
	});
});
