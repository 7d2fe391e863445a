/** Settles a value typed into a field: acts once typing pauses, or at once when flushed (blur, tab closed). */

import type { Timers } from "../sidecar/events";

/**
 * How long typing must pause before the sidecar URL or token is applied. Keystrokes come 100–300 ms apart and a
 * pasted value arrives in one event, so 600 ms waits out a typist's gaps (and a glance at the port number)
 * without making a finished value feel slow; leaving the field applies it at once.
 */
export const SETTLE_MS = 600;

export class Debounced<T> {
	private pending: { value: T } | null = null;
	private timer: number | null = null;

	constructor(
		private readonly apply: (value: T) => void,
		private readonly timers: Timers,
		private readonly delayMs: number = SETTLE_MS,
	) {}

	/** The field changed: apply `value` once no newer one has come for `delayMs`. */
	push(value: T): void {
		this.pending = { value };
		this.clear();
		this.timer = this.timers.setTimeout(() => {
			this.timer = null;
			this.flush();
		}, this.delayMs);
	}

	/** Applies the latest pushed value now (if one is waiting). */
	flush(): void {
		this.clear();
		const pending = this.pending;
		this.pending = null;
		if (pending) this.apply(pending.value);
	}

	private clear(): void {
		if (this.timer !== null) this.timers.clearTimeout(this.timer);
		this.timer = null;
	}
}
