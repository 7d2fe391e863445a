/** The settings UI: Setting, its controls (text, text area, toggle, slider, button) and PluginSettingTab. */

import type { App, Plugin } from "./app";

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

/** The parts of Obsidian 1.13's setting definitions the shim renders: rows with `render`, and groups of them. */
interface RenderRow {
	name: string;
	desc?: string | DocumentFragment;
	render: (setting: Setting) => void | (() => void);
}
interface RowGroup {
	type: "group" | "list";
	heading?: string;
	visible?: boolean | (() => boolean);
	items?: RenderRow[];
}
type DefinitionItem = RenderRow | RowGroup;

export abstract class PluginSettingTab {
	containerEl: HTMLElement;
	private cleanups: (() => void)[] = [];
	constructor(
		readonly app: App,
		readonly plugin: Plugin,
	) {
		this.containerEl = createDiv({ cls: "vertical-tab-content" });
	}
	abstract display(): void;
	/**
	 * Opens the tab as Obsidian 1.13+ does: a tab with getSettingDefinitions() is rendered from its definitions
	 * (display() is bypassed); any other tab through display().
	 */
	show(): void {
		const definitions = (this as unknown as { getSettingDefinitions?: () => DefinitionItem[] }).getSettingDefinitions;
		if (typeof definitions !== "function") return this.display();
		this.runCleanups();
		this.containerEl.empty();
		const row = (def: RenderRow) => {
			const setting = new Setting(this.containerEl).setName(def.name);
			if (def.desc !== undefined) setting.setDesc(def.desc);
			const cleanup = def.render(setting);
			if (typeof cleanup === "function") this.cleanups.push(cleanup);
		};
		for (const item of definitions.call(this)) {
			if (!("type" in item)) {
				row(item);
				continue;
			}
			const visible = typeof item.visible === "function" ? item.visible() : item.visible !== false;
			if (!visible) continue;
			if (item.heading) new Setting(this.containerEl).setName(item.heading).setHeading();
			(item.items ?? []).forEach(row);
		}
	}
	hide(): void {
		this.runCleanups();
		this.containerEl.empty();
	}
	private runCleanups(): void {
		const cleanups = this.cleanups;
		this.cleanups = [];
		cleanups.forEach((cleanup) => cleanup());
	}
}
