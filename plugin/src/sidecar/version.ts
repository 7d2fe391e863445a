/** Whether the sidecar speaks this plugin's API version, and which side to update when it does not. */

import { isPlainObject } from "./schema";
import { API_VERSION } from "./wire";

export interface VersionMismatch {
	/** Which program is behind: this plugin, or the `askvault` sidecar. */
	update: "plugin" | "sidecar";
	/** A sentence a user can act on. */
	message: string;
}

/**
 * Compares the `api_version` of a status body (as received, before its shape is checked: a body of another
 * version may not have this version's shape) with the plugin's. A body without one predates the field.
 */
export function checkApiVersion(status: unknown, ours: number = API_VERSION): VersionMismatch | null {
	const raw = isPlainObject(status) ? status.api_version : undefined;
	const theirs = typeof raw === "number" && Number.isInteger(raw) ? raw : null;
	if (theirs === ours) return null;
	const speaks = theirs === null ? "does not say which API version it speaks" : `speaks API version ${theirs}`;
	if (theirs !== null && theirs > ours) {
		return {
			update: "plugin",
			message: `The Ask Vault sidecar ${speaks}, newer than this plugin's ${ours}: update the Ask Vault plugin (Settings → Community plugins).`,
		};
	}
	return {
		update: "sidecar",
		message: `The Ask Vault sidecar ${speaks}, older than this plugin's ${ours}: update askvault (\`pipx upgrade askvault\` or \`uv tool upgrade askvault\`) and restart it.`,
	};
}
