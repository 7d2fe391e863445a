/** Renders a growing Markdown answer: throttled, one render at a time, off-DOM, then swapped in whole. */

import { type App, Component, MarkdownRenderer } from "obsidian";

export const RENDER_THROTTLE_MS = 80;

/**
 * Each render goes into a detached element with a fresh child component (the previous one is unloaded after
 * the swap, so embeds and post-processors of stale renders are cleaned up). `MarkdownRenderer.render` is async,
 * so renders are chained: two never write into the same element at once, and the last text always wins.
 */
export class MarkdownStream {
	private latest = "";
	private shown: string | null = null;
	private timer: number | null = null;
	private chain: Promise<void> = Promise.resolve();
	private child: Component | null = null;
	private disposed = false;

	constructor(
		private readonly app: App,
		private readonly owner: Component,
		private readonly target: HTMLElement,
		private readonly decorate: (rendered: HTMLElement) => void,
		private readonly throttleMs = RENDER_THROTTLE_MS,
	) {}

	/** Sets the text to show; it appears within `throttleMs`, or at once (awaitable) when `now` is true. */
	set(text: string, now = false): Promise<void> {
		this.latest = text;
		if (now) return this.flush();
		if (this.timer === null) {
			this.timer = window.setTimeout(() => {
				this.timer = null;
				void this.flush();
			}, this.throttleMs);
		}
		return this.chain;
	}

	/** Re-renders the current text (for example once the sources that resolve citations are known). */
	refresh(): Promise<void> {
		this.shown = null;
		return this.flush();
	}

	flush(): Promise<void> {
		if (this.timer !== null) {
			window.clearTimeout(this.timer);
			this.timer = null;
		}
		this.chain = this.chain.then(() => this.renderLatest()).catch((e: unknown) => console.error("Ask Vault: render failed", e));
		return this.chain;
	}

	dispose(): void {
		this.disposed = true;
		if (this.timer !== null) window.clearTimeout(this.timer);
		this.timer = null;
		if (this.child) this.owner.removeChild(this.child);
		this.child = null;
	}

	private async renderLatest(): Promise<void> {
		if (this.disposed || this.latest === this.shown) return;
		const text = this.latest;
		const staging = createDiv();
		const child = this.owner.addChild(new Component());
		try {
			await MarkdownRenderer.render(this.app, text, staging, "", child);
		} catch (e) {
			this.owner.removeChild(child);
			throw e;
		}
		if (this.disposed) {
			this.owner.removeChild(child);
			return;
		}
		this.decorate(staging);
		this.target.replaceChildren(...Array.from(staging.childNodes));
		if (this.child) this.owner.removeChild(this.child);
		this.child = child;
		this.shown = text;
	}
}
