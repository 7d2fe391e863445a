/**
 * A small runtime stand-in for the `obsidian` module, enough to run Ask Vault in a page (the e2e harness) or in
 * jsdom (vitest). It imitates the app's behaviour that the plugin relies on and records what a test needs to see
 * (hover-link payloads, opened links, notices). It is not Obsidian: layout, real Page preview and themes differ.
 */

import { installDomHelpers, type ElInfo } from "./dom";
import { renderMarkdown } from "./markdown";

installDomHelpers(window);

type Callback = (...args: unknown[]) => unknown;

export const apiVersion = "1.13.1";

function versionAtLeast(have: string, want: string): boolean {
	const a = have.split(".").map(Number);
	const b = want.split(".").map(Number);
	for (let i = 0; i < Math.max(a.length, b.length); i++) {
		const x = a[i] ?? 0;
		const y = b[i] ?? 0;
		if (x !== y) return x > y;
	}
	return true;
}

export function requireApiVersion(version: string): boolean {
	return versionAtLeast(apiVersion, version);
}

/** What the shim saw, for assertions. */
export const records = {
	hoverLinks: [] as Record<string, unknown>[],
	opened: [] as { linktext: string; sourcePath: string; newLeaf: unknown; state: unknown }[],
	notices: [] as string[],
	renders: 0,
};

export const Platform = {
	isDesktop: true,
	isMobile: false,
	isDesktopApp: false,
	isMobileApp: false,
	isIosApp: false,
	isAndroidApp: false,
	isPhone: false,
	isTablet: false,
	isMacOS: false,
	isWin: false,
	isLinux: true,
	isSafari: false,
};

export function normalizePath(path: string): string {
	return path.replace(/\\/g, "/").replace(/\/+/g, "/").replace(/^\/|\/$/g, "");
}

export function parseLinktext(linktext: string): { path: string; subpath: string } {
	const hash = linktext.indexOf("#");
	return hash === -1 ? { path: linktext, subpath: "" } : { path: linktext.slice(0, hash), subpath: linktext.slice(hash) };
}

export class Events {
	private handlers = new Map<string, { fn: Callback; ctx?: unknown }[]>();
	on(name: string, fn: Callback, ctx?: unknown): { name: string; fn: Callback; owner: Events } {
		const list = this.handlers.get(name) ?? [];
		list.push({ fn, ctx });
		this.handlers.set(name, list);
		return { name, fn, owner: this };
	}
	off(name: string, fn: Callback): void {
		this.handlers.set(
			name,
			(this.handlers.get(name) ?? []).filter((h) => h.fn !== fn),
		);
	}
	offref(ref: { name: string; fn: Callback }): void {
		this.off(ref.name, ref.fn);
	}
	trigger(name: string, ...data: unknown[]): void {
		for (const h of [...(this.handlers.get(name) ?? [])]) h.fn.apply(h.ctx, data);
	}
	tryTrigger(ref: { fn: Callback }, args: unknown[]): void {
		try {
			ref.fn(...args);
		} catch (e) {
			console.error(e);
		}
	}
}

export class Component {
	_loaded = false;
	private _children: Component[] = [];
	private _cleanups: (() => unknown)[] = [];
	load(): void {
		if (this._loaded) return;
		this._loaded = true;
		void this.onload();
		for (const c of this._children) c.load();
	}
	onload(): void | Promise<void> {}
	unload(): void {
		if (!this._loaded) return;
		this._loaded = false;
		for (const c of [...this._children]) c.unload();
		this._children = [];
		for (const fn of this._cleanups.splice(0).reverse()) fn();
		this.onunload();
	}
	onunload(): void {}
	addChild<T extends Component>(c: T): T {
		this._children.push(c);
		if (this._loaded) c.load();
		return c;
	}
	removeChild<T extends Component>(c: T): T {
		const i = this._children.indexOf(c);
		if (i !== -1) {
			this._children.splice(i, 1);
			c.unload();
		}
		return c;
	}
	get childCount(): number {
		return this._children.length;
	}
	register(fn: () => unknown): void {
		this._cleanups.push(fn);
	}
	registerEvent(ref: { owner: Events; name: string; fn: Callback }): void {
		this.register(() => ref.owner.offref(ref));
	}
	registerDomEvent(el: EventTarget, type: string, cb: EventListener, options?: boolean | AddEventListenerOptions): void {
		el.addEventListener(type, cb, options);
		this.register(() => el.removeEventListener(type, cb, options));
	}
	registerInterval(id: number): number {
		this.register(() => window.clearInterval(id));
		return id;
	}
}

export class TAbstractFile {
	path = "";
	name = "";
}
export class TFile extends TAbstractFile {
	basename = "";
	extension = "md";
}
export class TFolder extends TAbstractFile {}

export class FileSystemAdapter {
	getBasePath(): string {
		return "";
	}
}

export class Vault extends Events {
	configDir = ".obsidian";
	adapter: unknown = {};
	getName(): string {
		return "e2e-vault";
	}
}

export class MetadataCache extends Events {
	getFirstLinkpathDest(): TFile | null {
		return null;
	}
	getFileCache(): null {
		return null;
	}
}

export class HoverPopover extends Component {
	hoverEl = createDiv();
}

type ViewCreator = (leaf: WorkspaceLeaf) => View;

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
	getActiveViewOfType<T>(type: new (...args: never[]) => T): T | null {
		for (const leaf of this.leaves) if (leaf.view instanceof type) return leaf.view;
		return null;
	}
	async openLinkText(linktext: string, sourcePath: string, newLeaf?: unknown, state?: unknown): Promise<void> {
		records.opened.push({ linktext, sourcePath, newLeaf: newLeaf ?? false, state: state ?? null });
	}
	trigger(name: string, ...data: unknown[]): void {
		// Page preview is not imitated: the payload is recorded so tests can check what Obsidian would receive.
		if (name === "hover-link") records.hoverLinks.push(data[0] as Record<string, unknown>);
		super.trigger(name, ...data);
	}
}

export class SecretStorage extends Events {
	private secrets = new Map<string, string>();
	setSecret(id: string, secret: string): void {
		if (!/^[a-z0-9-]+$/.test(id)) throw new Error("Invalid secret id");
		this.secrets.set(id, secret);
	}
	getSecret(id: string): string | null {
		return this.secrets.get(id) ?? null;
	}
	listSecrets(): string[] {
		return [...this.secrets.keys()];
	}
}

export class App {
	readonly vault = new Vault();
	readonly metadataCache = new MetadataCache();
	readonly secretStorage = new SecretStorage();
	readonly workspace: Workspace;
	readonly viewRegistry = new Map<string, ViewCreator>();
	readonly commands = new Map<string, Command>();
	readonly settingTabs: PluginSettingTab[] = [];
	readonly hoverSources = new Map<string, { display: string; defaultMod: boolean }>();
	readonly statusBarEl: HTMLElement;
	readonly ribbonEl: HTMLElement;
	lastEvent: unknown = null;
	constructor(root: HTMLElement = document.body) {
		this.ribbonEl = root.createDiv({ cls: "side-dock-ribbon" });
		const main = root.createDiv({ cls: "workspace" });
		const rootSplit = main.createDiv({ cls: "workspace-split mod-root" });
		const right = main.createDiv({ cls: "workspace-split mod-right-split" });
		this.statusBarEl = root.createDiv({ cls: "status-bar" });
		this.workspace = new Workspace(this, rootSplit, right);
	}
	/** Runs a command the way the palette does (checkCallback first). */
	executeCommandById(id: string): boolean {
		const cmd = this.commands.get(id);
		if (!cmd) return false;
		if (cmd.callback) {
			void cmd.callback();
			return true;
		}
		if (cmd.checkCallback) return cmd.checkCallback(false) !== false;
		return false;
	}
}

export interface Command {
	id: string;
	name: string;
	icon?: string;
	hotkeys?: unknown[];
	callback?: () => unknown;
	checkCallback?: (checking: boolean) => boolean | void;
	editorCallback?: (...args: unknown[]) => unknown;
	editorCheckCallback?: (...args: unknown[]) => boolean | void;
}

export interface PluginManifest {
	id: string;
	name: string;
	version: string;
	minAppVersion: string;
	dir?: string;
}

export class Plugin extends Component {
	private data: unknown = null;
	constructor(
		readonly app: App,
		readonly manifest: PluginManifest,
	) {
		super();
	}
	/** Like Obsidian: awaits the (possibly async) onload before the plugin counts as loaded. */
	async loadAsync(): Promise<void> {
		this._loaded = true;
		await this.onload();
	}
	addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
		const el = this.app.ribbonEl.createEl("div", { cls: "side-dock-ribbon-action", attr: { "aria-label": title, "data-icon": icon } });
		setIcon(el, icon);
		el.addEventListener("click", (evt) => callback(evt));
		this.register(() => el.detach());
		return el;
	}
	addStatusBarItem(): HTMLElement {
		const el = this.app.statusBarEl.createDiv({ cls: "status-bar-item" });
		this.register(() => el.detach());
		return el;
	}
	addCommand(command: Command): Command {
		const full = { ...command, id: `${this.manifest.id}:${command.id}` };
		this.app.commands.set(full.id, full);
		this.register(() => this.app.commands.delete(full.id));
		return full;
	}
	removeCommand(id: string): void {
		this.app.commands.delete(`${this.manifest.id}:${id}`);
	}
	addSettingTab(tab: PluginSettingTab): void {
		this.app.settingTabs.push(tab);
	}
	registerView(type: string, creator: ViewCreator): void {
		this.app.viewRegistry.set(type, creator);
		this.register(() => {
			this.app.viewRegistry.delete(type);
			this.app.workspace.detachLeavesOfType(type);
		});
	}
	registerHoverLinkSource(id: string, info: { display: string; defaultMod: boolean }): void {
		this.app.hoverSources.set(id, info);
		this.register(() => this.app.hoverSources.delete(id));
	}
	async loadData(): Promise<unknown> {
		return this.data === null ? null : structuredClone(this.data);
	}
	async saveData(data: unknown): Promise<void> {
		this.data = structuredClone(data);
	}
	/** Test hook: what loadData returns next. */
	setData(data: unknown): void {
		this.data = data;
	}
}

export class Notice {
	noticeEl: HTMLElement;
	constructor(message: string | DocumentFragment, duration?: number) {
		const text = typeof message === "string" ? message : (message.textContent ?? "");
		records.notices.push(text);
		let container = document.body.querySelector<HTMLElement>(".notice-container");
		if (!container) container = document.body.createDiv({ cls: "notice-container" });
		this.noticeEl = container.createDiv({ cls: "notice", text });
		window.setTimeout(() => this.hide(), duration ?? 5000);
	}
	setMessage(message: string): this {
		this.noticeEl.setText(message);
		return this;
	}
	hide(): void {
		this.noticeEl.detach();
	}
}

export class Modal {
	containerEl: HTMLElement;
	modalEl: HTMLElement;
	titleEl: HTMLElement;
	contentEl: HTMLElement;
	scope: unknown = null;
	private closeCallback: (() => unknown) | null = null;
	constructor(readonly app: App) {
		this.containerEl = createDiv({ cls: "modal-container" });
		this.containerEl.createDiv({ cls: "modal-bg" });
		this.modalEl = this.containerEl.createDiv({ cls: "modal" });
		this.titleEl = this.modalEl.createDiv({ cls: "modal-title" });
		this.contentEl = this.modalEl.createDiv({ cls: "modal-content" });
	}
	open(): void {
		document.body.appendChild(this.containerEl);
		void this.onOpen();
	}
	close(): void {
		this.containerEl.detach();
		this.onClose();
		this.closeCallback?.();
	}
	onOpen(): void | Promise<void> {}
	onClose(): void {}
	setTitle(title: string): this {
		this.titleEl.setText(title);
		return this;
	}
	setContent(content: string | DocumentFragment): this {
		this.contentEl.setText(content);
		return this;
	}
	setCloseCallback(cb: () => unknown): this {
		this.closeCallback = cb;
		return this;
	}
}

export abstract class SuggestModal<T> extends Modal {
	limit = 100;
	emptyStateText = "No results found.";
	inputEl: HTMLInputElement;
	resultContainerEl: HTMLElement;
	private instructionsEl: HTMLElement;
	private _items: T[] = [];
	private _selected = 0;
	private _updateSeq = 0;
	constructor(app: App) {
		super(app);
		this.modalEl.addClass("prompt");
		this.inputEl = this.modalEl.createEl("input", { cls: "prompt-input", attr: { type: "text" } });
		this.resultContainerEl = this.modalEl.createDiv({ cls: "prompt-results" });
		this.instructionsEl = this.modalEl.createDiv({ cls: "prompt-instructions" });
		this.inputEl.addEventListener("input", () => void this.updateSuggestions());
		this.inputEl.addEventListener("keydown", (evt) => {
			if (evt.key === "Enter") {
				const item = this._items[this._selected];
				if (item !== undefined) this.choose(item, evt);
			}
		});
	}
	setPlaceholder(text: string): void {
		this.inputEl.placeholder = text;
	}
	setInstructions(list: { command: string; purpose: string }[]): void {
		this.instructionsEl.empty();
		for (const i of list) this.instructionsEl.createDiv({ text: `${i.command} ${i.purpose}` });
	}
	open(): void {
		super.open();
		this.inputEl.focus();
		void this.updateSuggestions();
	}
	async updateSuggestions(): Promise<void> {
		const seq = ++this._updateSeq;
		const items = await this.getSuggestions(this.inputEl.value);
		if (seq !== this._updateSeq) return;
		this._items = items.slice(0, this.limit);
		this._selected = 0;
		this.resultContainerEl.empty();
		if (this._items.length === 0) {
			this.resultContainerEl.createDiv({ cls: "suggestion-empty", text: this.emptyStateText });
			return;
		}
		for (const item of this._items) {
			const el = this.resultContainerEl.createDiv({ cls: "suggestion-item" });
			this.renderSuggestion(item, el);
			el.addEventListener("click", (evt) => this.choose(item, evt));
		}
	}
	private choose(item: T, evt: MouseEvent | KeyboardEvent): void {
		this.close();
		this.onChooseSuggestion(item, evt);
	}
	abstract getSuggestions(query: string): T[] | Promise<T[]>;
	abstract renderSuggestion(value: T, el: HTMLElement): void;
	abstract onChooseSuggestion(item: T, evt: MouseEvent | KeyboardEvent): void;
}

class BaseComponent {
	disabled = false;
	setDisabled(disabled: boolean): this {
		this.disabled = disabled;
		return this;
	}
}

abstract class ValueComponent<T> extends BaseComponent {
	protected changeCallbacks: ((value: T) => unknown)[] = [];
	onChange(cb: (value: T) => unknown): this {
		this.changeCallbacks.push(cb);
		return this;
	}
	protected changed(value: T): void {
		for (const cb of this.changeCallbacks) void cb(value);
	}
}

export class TextComponent extends ValueComponent<string> {
	inputEl: HTMLInputElement;
	constructor(containerEl: HTMLElement) {
		super();
		this.inputEl = containerEl.createEl("input", { attr: { type: "text" } });
		this.inputEl.addEventListener("input", () => this.changed(this.inputEl.value));
	}
	getValue(): string {
		return this.inputEl.value;
	}
	setValue(value: string): this {
		this.inputEl.value = value;
		return this;
	}
	setPlaceholder(text: string): this {
		this.inputEl.placeholder = text;
		return this;
	}
}

export class TextAreaComponent extends ValueComponent<string> {
	inputEl: HTMLTextAreaElement;
	constructor(containerEl: HTMLElement) {
		super();
		this.inputEl = containerEl.createEl("textarea");
		this.inputEl.addEventListener("input", () => this.changed(this.inputEl.value));
	}
	getValue(): string {
		return this.inputEl.value;
	}
	setValue(value: string): this {
		this.inputEl.value = value;
		return this;
	}
	setPlaceholder(text: string): this {
		this.inputEl.placeholder = text;
		return this;
	}
}

export class ToggleComponent extends ValueComponent<boolean> {
	toggleEl: HTMLInputElement;
	constructor(containerEl: HTMLElement) {
		super();
		this.toggleEl = containerEl.createEl("input", { cls: "checkbox-container", attr: { type: "checkbox" } });
		this.toggleEl.addEventListener("change", () => this.changed(this.toggleEl.checked));
	}
	getValue(): boolean {
		return this.toggleEl.checked;
	}
	setValue(value: boolean): this {
		this.toggleEl.checked = value;
		return this;
	}
}

export class SliderComponent extends ValueComponent<number> {
	sliderEl: HTMLInputElement;
	constructor(containerEl: HTMLElement) {
		super();
		this.sliderEl = containerEl.createEl("input", { cls: "slider", attr: { type: "range" } });
		this.sliderEl.addEventListener("input", () => this.changed(Number(this.sliderEl.value)));
	}
	setLimits(min: number, max: number, step: number): this {
		this.sliderEl.min = String(min);
		this.sliderEl.max = String(max);
		this.sliderEl.step = String(step);
		return this;
	}
	getValue(): number {
		return Number(this.sliderEl.value);
	}
	setValue(value: number): this {
		this.sliderEl.value = String(value);
		return this;
	}
	setDynamicTooltip(): this {
		return this;
	}
}

export class ButtonComponent extends BaseComponent {
	buttonEl: HTMLButtonElement;
	constructor(containerEl: HTMLElement) {
		super();
		this.buttonEl = containerEl.createEl("button");
	}
	setButtonText(text: string): this {
		this.buttonEl.setText(text);
		return this;
	}
	setCta(): this {
		this.buttonEl.addClass("mod-cta");
		return this;
	}
	onClick(cb: (evt: MouseEvent) => unknown): this {
		this.buttonEl.addEventListener("click", (evt) => void cb(evt));
		return this;
	}
}

export class Setting {
	settingEl: HTMLElement;
	infoEl: HTMLElement;
	nameEl: HTMLElement;
	descEl: HTMLElement;
	controlEl: HTMLElement;
	constructor(containerEl: HTMLElement) {
		this.settingEl = containerEl.createDiv({ cls: "setting-item" });
		this.infoEl = this.settingEl.createDiv({ cls: "setting-item-info" });
		this.nameEl = this.infoEl.createDiv({ cls: "setting-item-name" });
		this.descEl = this.infoEl.createDiv({ cls: "setting-item-description" });
		this.controlEl = this.settingEl.createDiv({ cls: "setting-item-control" });
	}
	setName(name: string | DocumentFragment): this {
		this.nameEl.setText(name);
		return this;
	}
	setDesc(desc: string | DocumentFragment): this {
		this.descEl.setText(desc);
		return this;
	}
	setHeading(): this {
		this.settingEl.addClass("setting-item-heading");
		return this;
	}
	setClass(cls: string): this {
		this.settingEl.addClass(cls);
		return this;
	}
	addText(cb: (c: TextComponent) => unknown): this {
		cb(new TextComponent(this.controlEl));
		return this;
	}
	addTextArea(cb: (c: TextAreaComponent) => unknown): this {
		cb(new TextAreaComponent(this.controlEl));
		return this;
	}
	addToggle(cb: (c: ToggleComponent) => unknown): this {
		cb(new ToggleComponent(this.controlEl));
		return this;
	}
	addSlider(cb: (c: SliderComponent) => unknown): this {
		cb(new SliderComponent(this.controlEl));
		return this;
	}
	addButton(cb: (c: ButtonComponent) => unknown): this {
		cb(new ButtonComponent(this.controlEl));
		return this;
	}
}

export abstract class PluginSettingTab {
	containerEl: HTMLElement;
	constructor(
		readonly app: App,
		readonly plugin: Plugin,
	) {
		this.containerEl = createDiv({ cls: "vertical-tab-content" });
	}
	abstract display(): void;
	hide(): void {
		this.containerEl.empty();
	}
}

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

export class Keymap {
	static isModEvent(evt?: MouseEvent | KeyboardEvent | null): "tab" | "split" | "window" | boolean {
		if (!evt) return false;
		const mod = evt.ctrlKey || evt.metaKey;
		if (mod && evt.altKey && evt.shiftKey) return "window";
		if (mod && evt.altKey) return "split";
		return mod ? "tab" : false;
	}
}

export function setIcon(el: HTMLElement, icon: string): void {
	el.setAttr("data-icon", icon);
	if (!el.querySelector("svg, .shim-icon")) el.createSpan({ cls: "shim-icon", text: "◆" });
}

export function setTooltip(el: HTMLElement, tooltip: string): void {
	el.setAttr("aria-label", tooltip);
	el.setAttr("title", tooltip);
}

export interface RequestUrlParam {
	url: string;
	method?: string;
	contentType?: string;
	body?: string;
	headers?: Record<string, string>;
	throw?: boolean;
}

/** Buffers the whole body, like Obsidian's (which is why the plugin streams with fetch instead). */
export async function requestUrl(req: RequestUrlParam | string): Promise<{ status: number; text: string; json: unknown; headers: Record<string, string> }> {
	const r = typeof req === "string" ? { url: req } : req;
	const headers: Record<string, string> = { ...(r.headers ?? {}) };
	if (r.contentType) headers["Content-Type"] = r.contentType;
	const res = await window.fetch(r.url, { method: r.method ?? "GET", headers, body: r.body });
	const text = await res.text();
	let json: unknown = null;
	try {
		json = JSON.parse(text);
	} catch {
		json = null;
	}
	if (r.throw !== false && res.status >= 400) throw new Error(`Request failed, status ${res.status}`);
	return { status: res.status, text, json, headers: Object.fromEntries(res.headers.entries()) };
}

export type { ElInfo };
