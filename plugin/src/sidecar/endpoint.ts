/** Chooses the sidecar URL and token from what the user configured and what discovery found on disk. */

import type { Endpoint } from "./client";

export interface Discovered {
	/** The URL from a live `sidecar.json`, or null when none is running for this vault. */
	url: string | null;
	/** The contents of the vault's `token` file, or null when there is none. */
	token: string | null;
}

export interface ResolvedEndpoint extends Endpoint {
	/** Where the URL came from, shown in the settings tab: this vault's own sidecar, the settings, or a paired remote one. */
	via: "discovery" | "settings" | "remote";
}

/**
 * A live `sidecar.json` is this vault's own sidecar, so its URL and the token beside it win together.
 * Otherwise the configured URL is used with the stored token, or the discovered token file when none is stored.
 */
export function resolveEndpoint(settingsUrl: string, storedToken: string | null, discovered: Discovered | null): ResolvedEndpoint {
	const stored = storedToken && storedToken.trim() !== "" ? storedToken.trim() : null;
	if (discovered?.url) {
		return { baseUrl: discovered.url, token: discovered.token ?? stored, via: "discovery" };
	}
	return { baseUrl: settingsUrl, token: stored ?? discovered?.token ?? null, via: "settings" };
}
