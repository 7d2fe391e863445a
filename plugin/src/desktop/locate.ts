/** Desktop only: finds the sidecar program on disk (no shell), with Node modules loaded lazily. */

import { candidates, type Lookup, type LookupPlace, LookupStore } from "./commandLookup";

/** The one store the plugin's sidecar start, status bar and settings tab share (one per loaded plugin). */
export const sidecarLookup = new LookupStore();

export async function lookupPlace(): Promise<LookupPlace> {
	const os = await import("os");
	return { platform: os.platform(), env: process.env, home: os.homedir() };
}

/** The first candidate that is an executable file; `missing` with everything tried when none is. */
export async function locateCommand(command: string, place?: LookupPlace): Promise<Lookup> {
	const [fs, where] = await Promise.all([import("fs/promises"), place ?? lookupPlace()]);
	const { constants } = await import("fs");
	const tried = candidates(command, where);
	for (const path of tried) {
		try {
			const stat = await fs.stat(path);
			// Windows has no execute bit: a file with the program's name is the program.
			if (stat.isFile() && (where.platform === "win32" || (await fs.access(path, constants.X_OK).then(() => true)))) {
				return { state: "found", command, path };
			}
		} catch {
			// Absent or not executable: try the next place.
		}
	}
	return { state: "missing", command, searched: tried };
}
