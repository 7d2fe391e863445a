/** Desktop only: opens a file outside the vault with the system's default app (Electron's shell, loaded lazily). */

/** Resolves to "" when the file opened, else the system's reason (a missing file, no app for its type). */
export async function openWithDefaultApp(file: string): Promise<string> {
	const { shell } = await import("electron");
	return shell.openPath(file);
}
