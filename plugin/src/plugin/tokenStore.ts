/** Keeps the bearer token out of data.json: in Obsidian's SecretStorage (1.11.4+), otherwise only in memory. */

import { type App, requireApiVersion } from "obsidian";
import { TOKEN_SECRET_ID } from "../constants";

export class TokenStore {
	private memory: string | null = null;

	constructor(private readonly app: App) {}

	/** True when the token survives a restart (SecretStorage); false when it lives in memory only. */
	get persistent(): boolean {
		return requireApiVersion("1.11.4");
	}

	get(): string | null {
		if (requireApiVersion("1.11.4")) {
			const value = this.app.secretStorage.getSecret(TOKEN_SECRET_ID);
			return value && value.trim() !== "" ? value : null;
		}
		return this.memory;
	}

	set(token: string): void {
		const clean = token.trim();
		if (requireApiVersion("1.11.4")) {
			this.app.secretStorage.setSecret(TOKEN_SECRET_ID, clean);
		} else {
			this.memory = clean === "" ? null : clean;
		}
	}
}
