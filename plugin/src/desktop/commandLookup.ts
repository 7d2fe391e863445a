/** Where the `askvault` program may be (the configured command, PATH, the folders pipx and uv use) and what to say when it is nowhere: plain data, no I/O. */

export const SIDECAR_PROGRAM = "askvault";
export const INSTALL_COMMAND = "pipx install askvault";
export const INSTALL_COMMAND_UV = "uv tool install askvault";

/** What the search depends on, passed in so that it can be tested for any platform. */
export interface LookupPlace {
	platform: string;
	env: Record<string, string | undefined>;
	home: string;
}

export type Lookup =
	| { state: "found"; command: string; path: string }
	| { state: "missing"; command: string; searched: string[] };

const isWindows = (place: LookupPlace) => place.platform === "win32";

function join(place: LookupPlace, ...parts: string[]): string {
	const sep = isWindows(place) ? "\\" : "/";
	const trim = isWindows(place) ? /[\\/]+$/ : /\/+$/;
	return parts.map((p, i) => (i < parts.length - 1 ? p.replace(trim, "") : p)).join(sep);
}

function isAbsolute(place: LookupPlace, path: string): boolean {
	return isWindows(place) ? /^([a-zA-Z]:[\\/]|\\\\)/.test(path) : path.startsWith("/");
}

/** Windows keeps environment names in any case ("Path"); a plain copy of the environment does not. */
function envValue(place: LookupPlace, name: string): string | undefined {
	if (!isWindows(place)) return place.env[name];
	const key = Object.keys(place.env).find((k) => k.toUpperCase() === name);
	return key === undefined ? undefined : place.env[key];
}

function isPathLike(place: LookupPlace, command: string): boolean {
	return command.startsWith("~") || command.includes("/") || (isWindows(place) && command.includes("\\"));
}

function expandHome(place: LookupPlace, command: string): string {
	if (command === "~") return place.home;
	return /^~[\\/]/.test(command) ? join(place, place.home, command.slice(2)) : command;
}

/** Spawning without a shell runs only real executables: on Windows that is the `.exe` pipx and uv write. */
function programNames(place: LookupPlace, name: string): string[] {
	return isWindows(place) && !/\.[a-z0-9]+$/i.test(name) ? [`${name}.exe`] : [name];
}

/** The folders pipx and uv install programs into; Obsidian started from a desktop menu often lacks them on PATH. */
export function toolFolders(place: LookupPlace): string[] {
	const folders = [
		envValue(place, "PIPX_BIN_DIR"),
		envValue(place, "UV_TOOL_BIN_DIR"),
		envValue(place, "XDG_BIN_HOME"),
		join(place, place.home, ".local", "bin"),
	];
	if (place.platform === "darwin") folders.push("/opt/homebrew/bin", "/usr/local/bin");
	return folders.filter((f): f is string => typeof f === "string" && f !== "");
}

/** PATH's folders in order; relative entries are left out, since they would depend on Obsidian's working folder. */
export function pathFolders(place: LookupPlace): string[] {
	const path = envValue(place, "PATH") ?? "";
	return path.split(isWindows(place) ? ";" : ":").filter((dir) => dir !== "" && isAbsolute(place, dir));
}

/** Every file that could be the program, in the order to try: the configured command first, then `askvault` anywhere. */
export function candidates(command: string, place: LookupPlace): string[] {
	const configured = command.trim() === "" ? SIDECAR_PROGRAM : command.trim();
	const folders = [...pathFolders(place), ...toolFolders(place)];
	const search = (name: string) => folders.flatMap((dir) => programNames(place, name).map((n) => join(place, dir, n)));
	const out = isPathLike(place, configured) ? programNames(place, expandHome(place, configured)) : search(configured);
	if (configured !== SIDECAR_PROGRAM) out.push(...search(SIDECAR_PROGRAM));
	return [...new Set(out)];
}

/** One sentence for the settings tab, the status bar and the notice. */
export function describeLookup(lookup: Lookup): string {
	if (lookup.state === "found") return `Using ${lookup.path}.`;
	return (
		`The sidecar program "${lookup.command}" was not found (searched PATH and ~/.local/bin). ` +
		`Install it with \`${INSTALL_COMMAND}\` (or \`${INSTALL_COMMAND_UV}\`), then restart the sidecar from the settings.`
	);
}

/** The latest lookup, for the views that show it; null when nothing is looked for (automatic start is off). */
export class LookupStore {
	private value: Lookup | null = null;
	private readonly listeners = new Set<(lookup: Lookup | null) => void>();

	get current(): Lookup | null {
		return this.value;
	}

	set(lookup: Lookup | null): void {
		this.value = lookup;
		this.listeners.forEach((l) => l(lookup));
	}

	onChange(listener: (lookup: Lookup | null) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}
}
