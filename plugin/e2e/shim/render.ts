/** Markdown rendering: MarkdownRenderChild and MarkdownRenderer, asynchronous like Obsidian's, over the shim's renderer. */

import type { App } from "./app";
import { Component, records } from "./core";
import { renderMarkdown } from "./markdown";

export class MarkdownRenderChild extends Component {
	constructor(readonly containerEl: HTMLElement) {
		super();
	}
}

export class MarkdownRenderer extends MarkdownRenderChild {
	/** Async like Obsidian's, so callers must cope with overlapping renders. */
	static async render(app: App, markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
		void app;
		void sourcePath;
		if (!component) throw new Error("MarkdownRenderer.render needs a component");
		await Promise.resolve();
		renderMarkdown(el.ownerDocument, markdown, el);
		records.renders += 1;
	}
}
