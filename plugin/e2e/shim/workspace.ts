/** The workspace: leaves, views (View, ItemView, MarkdownView), the hover popover and the Workspace that holds them. */

import type { App } from "./app";
import { Component, Events, parseLinktext, records } from "./core";
import { setIcon } from "./ui";
import type { TFile } from "./vault";

export class HoverPopover extends Component {
	hoverEl = createDiv();
}

export type ViewCreator = (leaf: WorkspaceLeaf) => View;

export class WorkspaceLeaf extends Events {
	view: View | null = null;
	readonly containerEl: HTMLElement;
	constructor(
		readonly app: App,
		parentEl: HTMLElement,
	) {
		super();
		this.containerEl = parentEl.createDiv({ cls: "workspace-leaf" });
	}
	get isDeferred(): boolean {
		return false;
	}
	async loadIfDeferred(): Promise<void> {}
	getViewState(): { type: string } {
		return { type: this.view?.getViewType() ?? "empty" };
	}
	async setViewState(state: { type: string; active?: boolean }): Promise<void> {
		const creator = this.app.viewRegistry.get(state.type);
		if (!creator) throw new Error(`No view registered for ${state.type}`);
		await this.closeView();
		const view = creator(this);
		this.view = view;
		this.containerEl.appendChild(view.containerEl);
		view.containerEl.querySelector(".view-header-title")?.setText(view.getDisplayText());
		view.load();
		await (view as unknown as { onOpen(): Promise<void> }).onOpen();
	}
	private async closeView(): Promise<void> {
		const view = this.view;
		if (!view) return;
		this.view = null;
		await (view as unknown as { onClose(): Promise<void> }).onClose();
		view.unload();
		view.containerEl.detach();
	}
	detach(): void {
		void this.closeView().then(() => {
			this.containerEl.detach();
			this.app.workspace.removeLeaf(this);
		});
	}
}

export abstract class View extends Component {
	app: App;
	icon = "";
	navigation = false;
	containerEl: HTMLElement;
	scope: unknown = null;
	constructor(readonly leaf: WorkspaceLeaf) {
		super();
		this.app = leaf.app;
		this.containerEl = createDiv({ cls: "view-content-container" });
	}
	protected async onOpen(): Promise<void> {}
	protected async onClose(): Promise<void> {}
	abstract getViewType(): string;
	abstract getDisplayText(): string;
	getIcon(): string {
		return this.icon;
	}
	getState(): Record<string, unknown> {
		return {};
	}
	async setState(): Promise<void> {}
	onResize(): void {}
}

export abstract class ItemView extends View {
	contentEl: HTMLElement;
	private actionsEl: HTMLElement;
	constructor(leaf: WorkspaceLeaf) {
		super(leaf);
		const header = this.containerEl.createDiv({ cls: "view-header" });
		header.createDiv({ cls: "view-header-title", text: "" });
		this.actionsEl = header.createDiv({ cls: "view-actions" });
		this.contentEl = this.containerEl.createDiv({ cls: "view-content" });
	}
	addAction(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = this.actionsEl.createEl("a", { cls: "clickable-icon view-action", attr: { "aria-label": title, "data-icon": icon } });
		setIcon(el, icon);
		el.addEventListener("click", (evt) => callback(evt));
		return el;
	}
}

export class MarkdownView extends ItemView {
	file: TFile | null = null;
	getViewType(): string {
		return "markdown";
	}
	getDisplayText(): string {
		return this.file?.basename ?? "";
	}
}

export class Workspace extends Events {
	leaves: WorkspaceLeaf[] = [];
	activeFile: TFile | null = null;
	layoutReady = false;
	private readyCallbacks: (() => unknown)[] = [];
	constructor(
		readonly app: App,
		readonly rootSplitEl: HTMLElement,
		readonly rightSplitEl: HTMLElement,
	) {
		super();
	}
	onLayoutReady(cb: () => unknown): void {
		if (this.layoutReady) cb();
		else this.readyCallbacks.push(cb);
	}
	setLayoutReady(): void {
		this.layoutReady = true;
		for (const cb of this.readyCallbacks.splice(0)) cb();
	}
	getLeavesOfType(type: string): WorkspaceLeaf[] {
		return this.leaves.filter((l) => l.view?.getViewType() === type);
	}
	getRightLeaf(): WorkspaceLeaf {
		const leaf = new WorkspaceLeaf(this.app, this.rightSplitEl);
		this.leaves.push(leaf);
		return leaf;
	}
	getLeaf(): WorkspaceLeaf {
		const leaf = new WorkspaceLeaf(this.app, this.rootSplitEl);
		this.leaves.push(leaf);
		return leaf;
	}
	async ensureSideLeaf(type: string): Promise<WorkspaceLeaf> {
		const leaf = this.getLeavesOfType(type)[0] ?? this.getRightLeaf();
		if (!leaf.view) await leaf.setViewState({ type });
		return leaf;
	}
	async revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
		leaf.containerEl.addClass("is-revealed");
	}
	removeLeaf(leaf: WorkspaceLeaf): void {
		this.leaves = this.leaves.filter((l) => l !== leaf);
	}
	detachLeavesOfType(type: string): void {
		for (const leaf of this.getLeavesOfType(type)) leaf.detach();
	}
	getActiveFile(): TFile | null {
		return this.activeFile;
	}
	/** Test hook: makes `file` the open note, firing what Obsidian fires when a note is opened in the main area. */
	setActiveFile__(file: TFile | null): void {
		this.activeFile = file;
		this.trigger("file-open", file);
		this.trigger("active-leaf-change", null);
	}
	getActiveViewOfType<T>(type: new (...args: never[]) => T): T | null {
		for (const leaf of this.leaves) if (leaf.view instanceof type) return leaf.view;
		return null;
	}
	async openLinkText(linktext: string, sourcePath: string, newLeaf?: unknown, state?: unknown): Promise<void> {
		records.opened.push({ linktext, sourcePath, newLeaf: newLeaf ?? false, state: state ?? null });
		// A link to a note the vault holds opens it, which makes it the active note.
		const { path } = parseLinktext(linktext);
		const file = this.app.vault.getFileByPath(path) ?? this.app.vault.getFileByPath(`${path}.md`);
		if (file) this.setActiveFile__(file);
	}
	trigger(name: string, ...data: unknown[]): void {
		// Page preview is not imitated: the payload is recorded so tests can check what Obsidian would receive.
		if (name === "hover-link") records.hoverLinks.push(data[0] as Record<string, unknown>);
		super.trigger(name, ...data);
	}
}
