/** Files, the vault, the metadata cache and secret storage: just enough for the plugin to start, list notes and read secrets. */

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

/** A TFile for a vault-relative path, named the way Obsidian names it. */
export function fileAt(path: string): TFile {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const dot = name.lastIndexOf(".");
	return Object.assign(new TFile(), {
		path,
		name,
		basename: dot > 0 ? name.slice(0, dot) : name,
		extension: dot > 0 ? name.slice(dot + 1) : "",
	});
}

export class FileSystemAdapter {
	getBasePath(): string {
		return "";
	}
}

export class Vault extends Events {
	configDir = ".obsidian";
	adapter: unknown = {};
	private files = new Map<string, { file: TFile; text: string }>();
	getName(): string {
		return "e2e-vault";
	}
	/** Test hook: puts a note (or any file) into the vault. */
	addFile__(path: string, text = ""): TFile {
		const file = fileAt(path);
		this.files.set(path, { file, text });
		this.trigger("create", file);
		return file;
	}
	/** Test hook: takes a note out of the vault, as a sync that has not brought it yet would leave it. */
	removeFile__(path: string): void {
		const entry = this.files.get(path);
		if (!entry) return;
		this.files.delete(path);
		this.trigger("delete", entry.file);
	}
	getFiles(): TFile[] {
		return [...this.files.values()].map((f) => f.file);
	}
	getMarkdownFiles(): TFile[] {
		return this.getFiles().filter((f) => f.extension === "md");
	}
	getFileByPath(path: string): TFile | null {
		return this.files.get(path)?.file ?? null;
	}
	getAbstractFileByPath(path: string): TAbstractFile | null {
		return this.getFileByPath(path);
	}
	async cachedRead(file: TFile): Promise<string> {
		return this.files.get(file.path)?.text ?? "";
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
