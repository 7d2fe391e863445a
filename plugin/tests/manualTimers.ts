/** Timers a test fires by hand: the event watcher's backoff and the remote transport's time-outs run without waiting. */

import type { Timers } from "../src/sidecar/events";

export class ManualTimers implements Timers {
	private next = 1;
	readonly pending = new Map<number, { fn: () => void; ms: number }>();

	setTimeout(fn: () => void, ms: number): number {
		const id = this.next++;
		this.pending.set(id, { fn, ms });
		return id;
	}

	clearTimeout(id: number): void {
		this.pending.delete(id);
	}

	/** Runs every pending timer of exactly `ms`. */
	fire(ms: number): void {
		for (const [id, t] of [...this.pending]) {
			if (t.ms !== ms) continue;
			this.pending.delete(id);
			t.fn();
		}
	}

	/** Runs the shortest pending timer; returns its delay. */
	fireShortest(): number {
		const [id, t] = [...this.pending.entries()].sort((a, b) => a[1].ms - b[1].ms)[0]!;
		this.pending.delete(id);
		t.fn();
		return t.ms;
	}

	delays(): number[] {
		return [...this.pending.values()].map((t) => t.ms).sort((a, b) => a - b);
	}
}
