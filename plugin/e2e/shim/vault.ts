/** Files, the vault, the metadata cache and secret storage: just enough for the plugin to start and read secrets. */

import { Events } from "./core";

export class TAbstractFile {
	path = "";
	name = "";
}
export class TFile extends TAbstractFile {
	basename = "";
	extension = "md";
}
export class TFolder extends TAbstractFile {}

export class FileSystemAdapter {
	getBasePath(): string {
		return "";
	}
}

export class Vault extends Events {
	configDir = ".obsidian";
	adapter: unknown = {};
	getName(): string {
		return "e2e-vault";
	}
}

export class MetadataCache extends Events {
	getFirstLinkpathDest(): TFile | null {
		return null;
	}
	getFileCache(): null {
		return null;
	}
}

export class SecretStorage extends Events {
	private secrets = new Map<string, string>();
	setSecret(id: string, secret: string): void {
		if (!/^[a-z0-9-]+$/.test(id)) throw new Error("Invalid secret id");
		this.secrets.set(id, secret);
	}
	getSecret(id: string): string | null {
		return this.secrets.get(id) ?? null;
	}
	listSecrets(): string[] {
		return [...this.secrets.keys()];
	}
}
