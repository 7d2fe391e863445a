/** Folders beside the vault (`--source LABEL=PATH`): which passage lives in one, and the file on disk behind it. */

/** One folder as `GET /api/status` lists it under `vault.sources`. */
export interface FolderSource {
	label: string;
	/** The folder's absolute path on the sidecar's machine. */
	path: string;
	notes: number;
}

/** A passage's file in a folder beside the vault: Obsidian cannot open it as a note; the system's default app can. */
export interface OutsideFile {
	label: string;
	/** Its path inside the folder (`guide/setup.md`). */
	rel: string;
	/** Its absolute path, with the folder's own separators (`C:\Docs\guide\setup.md` on Windows). */
	file: string;
}

/** The sidecar names a source's files `LABEL:relative/path`; Obsidian allows no `:` in a vault path. */
const SEPARATOR = ":";

export function outsideFile(path: string, sources: readonly FolderSource[]): OutsideFile | null {
	const at = path.indexOf(SEPARATOR);
	if (at <= 0 || path.slice(0, at).includes("/")) return null;
	const label = path.slice(0, at);
	const source = sources.find((s) => s.label === label);
	if (source === undefined) return null;
	const rel = path.slice(at + 1);
	const windows = /^[A-Za-z]:\\/.test(source.path) || source.path.startsWith("\\\\");
	const sep = windows ? "\\" : "/";
	const folder = source.path.endsWith(sep) ? source.path.slice(0, -1) : source.path;
	return { label, rel, file: `${folder}${sep}${windows ? rel.replace(/\//g, "\\") : rel}` };
}

/** What a click on such a passage says where the file cannot be opened here (a phone, a sidecar elsewhere). */
export function outsideNotice(found: OutsideFile): string {
	return `"${found.rel}" is in ${found.label}, a folder beside the vault: open ${found.file} on the computer that runs the sidecar.`;
}
