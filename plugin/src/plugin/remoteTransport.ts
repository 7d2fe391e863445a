/** How this platform reaches a remote sidecar: Node https with the certificate pinned on desktop, the WebView's fetch and a fingerprint check elsewhere. */

import { Platform } from "obsidian";
import { pinnedFetch } from "../desktop/pinnedFetch";
import type { FetchLike } from "../sidecar/client";
import type { Timers } from "../sidecar/events";
import { RemoteTransport, type RemoteTarget } from "../sidecar/remote";

const windowTimers: Timers = { setTimeout: (fn, ms) => window.setTimeout(fn, ms), clearTimeout: (id) => window.clearTimeout(id) };

export interface ReachHooks {
	lastReached: () => number | null;
	reached: () => void;
}

/**
 * On desktop Node's https checks the certificate itself against the pin before a byte is sent. A phone has no Node:
 * its WebView's fetch trusts what the system trusts (a `tailscale cert` certificate, or the sidecar's own one
 * installed as trusted) and hides the certificate, so /api/health's fingerprint is checked before any request.
 */
export function remoteTransport(target: RemoteTarget, webFetch: FetchLike, hooks: ReachHooks): RemoteTransport {
	const desktop = Platform.isDesktopApp;
	return new RemoteTransport(desktop ? pinnedFetch(target) : webFetch, target, {
		checkHealth: !desktop,
		timers: windowTimers,
		now: () => Date.now(),
		...hooks,
	});
}
