/** The one part of Electron the plugin uses (desktop only, loaded lazily): Obsidian ships Electron, not its types. */
declare module "electron" {
	export const shell: {
		/** Opens a file with the system's default app; resolves to "" on success, else the reason it failed. */
		openPath(path: string): Promise<string>;
	};
}
