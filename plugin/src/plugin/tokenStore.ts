/** Keeps a bearer token out of data.json: in Obsidian's SecretStorage (1.11.4+), otherwise only in memory. */

import { type App, requireApiVersion } from "obsidian";
import { TOKEN_SECRET_ID } from "../constants";

export class TokenStore {
	private memory: string | null = null;

	/** `id`: the loopback sidecar's token by default; a paired remote sidecar's device token has an id of its own. */
	constructor(
		private readonly app: App,
		private readonly id: string = TOKEN_SECRET_ID,
	) {}

	/** True when the token survives a restart (SecretStorage); false when it lives in memory only. */
	get persistent(): boolean {
		return requireApiVersion("1.11.4");
	}

	get(): string | null {
		if (requireApiVersion("1.11.4")) {
			const value = this.app.secretStorage.getSecret(this.id);
			return value && value.trim() !== "" ? value : null;
		}
		return this.memory;
	}

	set(token: string): void {
		const clean = token.trim();
		if (requireApiVersion("1.11.4")) {
			this.app.secretStorage.setSecret(this.id, clean);
		} else {
			this.memory = clean === "" ? null : clean;
		}
	}
}
