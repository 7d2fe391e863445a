/** The plugin's link to its sidecar: endpoint resolution (a paired remote one, else settings, token, discovery), the client, the event feed, and the child process it may own. */

import { type App, FileSystemAdapter, Notice, Platform } from "obsidian";
import { discover } from "../desktop/discovery";
import { type SidecarProcess, startSidecar } from "../desktop/sidecarProcess";
import { type AskVaultSettings, serveArgs } from "../settings";
import { type FetchLike, SidecarClient } from "../sidecar/client";
import { type Discovered, resolveEndpoint, type ResolvedEndpoint } from "../sidecar/endpoint";
import { type ConnectionState, EventsWatcher } from "../sidecar/events";
import type { PairingLink } from "../sidecar/pairing";
import { pairDevice, remoteBaseUrl, type RemoteTarget, type RemoteTransport, type StoredRemote } from "../sidecar/remote";
import type { RemoteStore } from "./remoteStore";
import { remoteTransport } from "./remoteTransport";
import type { TokenStore } from "./tokenStore";

/** Discovery files are re-read at most this often (every request resolves the endpoint). */
const DISCOVERY_TTL_MS = 2000;
/**
 * While the sidecar indexes, /api/status is read this often for the phase, rate and time left (the event stream
 * carries counts only). The sidecar's rate is measured over the last minute and the estimate is shown in minutes,
 * so a few seconds keep it current at one small request each.
 */
export const STATUS_POLL_MS = 5000;

/** While an index run or a search graph build goes on, the status is read again for its progress. */
function shouldPoll(state: ConnectionState): boolean {
	return state.connected && (state.index?.state === "indexing" || state.status?.index.dense_graph === "building");
}

export class SidecarConnection {
	readonly client: SidecarClient;
	private readonly watcher: EventsWatcher;
	private readonly listeners = new Set<(state: ConnectionState) => void>();
	private discovered: Discovered | null = null;
	private discoveredAt = 0;
	private child: SidecarProcess | null = null;
	private stopped = false;
	private indexState: "idle" | "indexing" | null = null;
	private pollTimer: number | null = null;
	/** Bumped by every reconnect, so a status read from the endpoint before it is not folded in after. */
	private generation = 0;
	private transport: RemoteTransport | null = null;
	lastEndpoint: ResolvedEndpoint | null = null;

	constructor(
		private readonly app: App,
		private readonly settings: () => AskVaultSettings,
		readonly tokens: TokenStore,
		readonly remote: RemoteStore,
		private readonly webFetch: FetchLike,
	) {
		this.client = new SidecarClient(
			() => this.endpoint(),
			(url, init) => {
				const paired = this.remote.current;
				return paired === null ? this.webFetch(url, init) : this.remoteTransport(paired).fetch(url, init);
			},
		);
		this.watcher = new EventsWatcher(
			{ events: (signal) => this.client.events(signal) },
			(state) => {
				const finished = this.indexState === "indexing" && state.index?.state === "idle";
				this.indexState = state.index?.state ?? null;
				this.listeners.forEach((l) => l(state));
				// Progress events carry no counts: after a run, note, chunk and redaction counts come from the status.
				if (finished) void this.refreshStatus();
				if (shouldPoll(state)) this.schedulePoll();
				else this.cancelPoll();
			},
			{ setTimeout: (fn, ms) => window.setTimeout(fn, ms), clearTimeout: (id) => window.clearTimeout(id) },
		);
	}

	get state(): ConnectionState {
		return this.watcher.current;
	}

	/** True when the plugin started the sidecar process itself. */
	get ownsSidecar(): boolean {
		return this.child !== null;
	}

	onChange(listener: (state: ConnectionState) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	async start(): Promise<void> {
		this.stopped = false;
		if (this.settings().autoStart && this.remote.current === null) await this.ensureSidecar();
		this.watcher.start();
	}

	stop(): void {
		this.stopped = true;
		this.cancelPoll();
		this.watcher.stop();
		this.child?.stop();
		this.child = null;
	}

	/** After the URL or token changed: forget what discovery cached and reconnect now. */
	reconnect(): void {
		this.discoveredAt = 0;
		this.generation += 1;
		this.watcher.reconnectNow();
	}

	/** After sidecar options changed: stop the sidecar this plugin started (if any) and start it again. */
	async restartSidecar(): Promise<void> {
		const previous = this.child;
		this.child = null;
		if (previous) {
			previous.stop();
			await previous.exited;
		}
		if (this.settings().autoStart && this.remote.current === null) await this.ensureSidecar();
		this.reconnect();
	}

	/**
	 * Pairs this device with a remote sidecar and switches to it. The code travels only to the sidecar holding the
	 * link's certificate (see remoteTransport); a sidecar this plugin started on this computer is stopped.
	 */
	async pairRemote(link: PairingLink, device: string, signal?: AbortSignal): Promise<StoredRemote> {
		const transport = remoteTransport(link, this.webFetch, { lastReached: () => null, reached: () => undefined });
		const answer = await pairDevice(transport.fetch, link, device, signal);
		const record: StoredRemote = { address: link.address, fingerprint: link.fingerprint, device: answer.device, lastReached: Date.now() };
		this.remote.set(record, answer.token);
		await this.restartSidecar();
		return record;
	}

	/** Forgets the remote sidecar on this device and goes back to the sidecar URL (starting the local one if set to). */
	async disconnectRemote(): Promise<void> {
		this.remote.clear();
		await this.restartSidecar();
	}

	/** One transport per paired sidecar, so its fingerprint check (on a phone) is made once per connection, not per request. */
	private remoteTransport(target: RemoteTarget): RemoteTransport {
		const known = this.transport;
		if (known?.target.address === target.address && known.target.fingerprint === target.fingerprint) return known;
		this.transport = remoteTransport(target, this.webFetch, {
			lastReached: () => this.remote.saved?.lastReached ?? null,
			reached: () => this.remote.touch(),
		});
		return this.transport;
	}

	/** One status read after STATUS_POLL_MS; the state change it brings schedules the next while indexing goes on. */
	private schedulePoll(): void {
		if (this.pollTimer !== null || this.stopped) return;
		this.pollTimer = window.setTimeout(() => {
			this.pollTimer = null;
			void this.refreshStatus();
		}, STATUS_POLL_MS);
	}

	private cancelPoll(): void {
		if (this.pollTimer !== null) window.clearTimeout(this.pollTimer);
		this.pollTimer = null;
	}

	private async refreshStatus(): Promise<void> {
		const generation = this.generation;
		try {
			const status = await this.client.status();
			if (generation === this.generation) this.watcher.applyStatus(status);
		} catch {
			// The event stream reports a lost sidecar; a failed refresh only keeps the older counts (and polls again).
			if (shouldPoll(this.state)) this.schedulePoll();
		}
	}

	/** The vault's folder on disk (desktop only; null on mobile or in a browser). */
	vaultPath(): string | null {
		if (!Platform.isDesktopApp) return null;
		const adapter = this.app.vault.adapter;
		return adapter instanceof FileSystemAdapter ? adapter.getBasePath() : null;
	}

	async endpoint(): Promise<ResolvedEndpoint> {
		// A paired remote sidecar replaces discovery and the settings: this computer's sidecar is not asked at all.
		const paired = this.remote.current;
		if (paired !== null) {
			this.lastEndpoint = { baseUrl: remoteBaseUrl(paired.address), token: paired.token, via: "remote" };
			return this.lastEndpoint;
		}
		const discovered = await this.discovery();
		const resolved = resolveEndpoint(this.settings().sidecarUrl, this.tokens.get(), discovered);
		this.lastEndpoint = resolved;
		return resolved;
	}

	private async discovery(force = false): Promise<Discovered | null> {
		const vault = this.vaultPath();
		if (vault === null) return null;
		const now = Date.now();
		if (force || now - this.discoveredAt > DISCOVERY_TTL_MS) {
			const dataDir = this.settings().dataDir;
			this.discovered = await discover(vault, dataDir === "" ? null : dataDir).catch(() => null);
			this.discoveredAt = now;
		}
		return this.discovered;
	}

	/** Starts `askvault serve` unless a sidecar for this vault (or anything at the URL) already answers. */
	private async ensureSidecar(): Promise<void> {
		const vault = this.vaultPath();
		if (vault === null || this.child !== null || this.remote.current !== null) return;
		const found = await this.discovery(true);
		if (found?.url) return;
		if (await this.client.health()) return;
		const settings = this.settings();
		let child: SidecarProcess;
		try {
			child = await startSidecar(settings.command, serveArgs(settings, vault));
		} catch (e) {
			new Notice(`Ask Vault could not start "${settings.command}": ${e instanceof Error ? e.message : String(e)}`);
			return;
		}
		this.child = child;
		void child.exited.then((exit) => {
			if (this.child !== child) return;
			this.child = null;
			if (this.stopped) return;
			const how = exit.code !== null ? `exit code ${exit.code}` : `signal ${exit.signal ?? "unknown"}`;
			const tail = exit.stderrTail.split("\n").slice(-3).join(" ");
			new Notice(`Ask Vault: the sidecar stopped (${how}). ${tail}`.trim(), 15_000);
		});
	}
}
