/** The remote sidecar this device is paired with, kept on this device only: the record in Obsidian's local storage, the device token in SecretStorage. */

import { type App, requireApiVersion } from "obsidian";
import { REMOTE_STORAGE_KEY, REMOTE_TOKEN_SECRET_ID } from "../constants";
import { parseStoredRemote, type StoredRemote } from "../sidecar/remote";
import { TokenStore } from "./tokenStore";

/** A paired remote sidecar with the device token it issued. */
export interface RemoteConnection extends StoredRemote {
	token: string;
}

/** `lastReached` changes with every answer and is shown to the minute: written to storage at most this often. */
const WRITE_EVERY_MS = 30_000;

/**
 * Not data.json: that file syncs with the vault to every device, and the pairing belongs to this one. The record
 * (address, fingerprint, device name, last reached) goes to `app.saveLocalStorage` (Obsidian 1.8.7+; per vault and
 * device), the token to SecretStorage (1.11.4+) under its own id; older versions keep them in memory until restart.
 */
export class RemoteStore {
	private record: StoredRemote | null | undefined = undefined;
	private readonly tokens: TokenStore;
	private writtenAt = 0;
	private readonly listeners = new Set<() => void>();

	constructor(private readonly app: App) {
		this.tokens = new TokenStore(app, REMOTE_TOKEN_SECRET_ID);
	}

	/** True when both parts survive a restart. */
	get persistent(): boolean {
		return requireApiVersion("1.8.7") && this.tokens.persistent;
	}

	/** The paired sidecar with its token; null when there is none (or its token is gone). */
	get current(): RemoteConnection | null {
		const record = this.saved;
		const token = this.tokens.get();
		return record !== null && token !== null ? { ...record, token } : null;
	}

	/** The stored record, token or not (a token kept in memory does not outlive Obsidian). */
	get saved(): StoredRemote | null {
		if (this.record === undefined) {
			this.record = requireApiVersion("1.8.7") ? parseStoredRemote(this.app.loadLocalStorage(REMOTE_STORAGE_KEY)) : null;
		}
		return this.record;
	}

	set(record: StoredRemote, token: string): void {
		this.record = { ...record };
		this.writtenAt = Date.now();
		this.write(this.record);
		this.tokens.set(token);
		this.changed();
	}

	/** Forgets the pairing on this device (the sidecar lists the device until `askvault revoke`). */
	clear(): void {
		this.record = null;
		this.write(null);
		this.tokens.set("");
		this.changed();
	}

	/** The sidecar answered just now. */
	touch(now: number = Date.now()): void {
		const record = this.saved;
		if (record === null) return;
		record.lastReached = now;
		if (now - this.writtenAt < WRITE_EVERY_MS) return;
		this.writtenAt = now;
		this.write(record);
	}

	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private changed(): void {
		this.listeners.forEach((l) => l());
	}

	private write(record: StoredRemote | null): void {
		if (requireApiVersion("1.8.7")) this.app.saveLocalStorage(REMOTE_STORAGE_KEY, record);
	}
}
