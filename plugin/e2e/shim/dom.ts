/** Obsidian's DOM helpers (createEl, empty, setText, addClass, instanceOf, …), installed on the prototypes of whatever DOM runs the shim. */

type Attrs = Record<string, string | number | boolean | null>;

export interface ElInfo {
	cls?: string | string[];
	text?: string | DocumentFragment;
	attr?: Attrs;
	title?: string;
	parent?: Node;
	value?: string;
	type?: string;
	prepend?: boolean;
	placeholder?: string;
	href?: string;
}

function setAttrValue(el: Element, name: string, value: string | number | boolean | null): void {
	if (value === null || value === false) el.removeAttribute(name);
	else el.setAttribute(name, value === true ? "" : String(value));
}

function classes(cls: string | string[]): string[] {
	return (Array.isArray(cls) ? cls : cls.split(" ")).filter((c) => c !== "");
}

export function makeEl(doc: Document, tag: string, o?: ElInfo | string, callback?: (el: HTMLElement) => void): HTMLElement {
	const el = doc.createElement(tag);
	const info: ElInfo = typeof o === "string" ? { cls: o } : (o ?? {});
	if (info.cls) el.classList.add(...classes(info.cls));
	if (info.text !== undefined) {
		if (typeof info.text === "string") el.textContent = info.text;
		else el.appendChild(info.text);
	}
	if (info.attr) for (const [k, v] of Object.entries(info.attr)) setAttrValue(el, k, v);
	if (info.title !== undefined) el.title = info.title;
	if (info.value !== undefined && "value" in el) (el as HTMLInputElement).value = info.value;
	if (info.type !== undefined) el.setAttribute("type", info.type);
	if (info.placeholder !== undefined) el.setAttribute("placeholder", info.placeholder);
	if (info.href !== undefined) el.setAttribute("href", info.href);
	if (info.parent) {
		if (info.prepend) info.parent.insertBefore(el, info.parent.firstChild);
		else info.parent.appendChild(el);
	}
	callback?.(el);
	return el;
}

let installed = false;

/** Installs the helpers on `win`'s prototypes and globals (idempotent). */
export function installDomHelpers(win: Window & typeof globalThis): void {
	if (installed) return;
	installed = true;
	const doc = win.document;
	const NodeProto = win.Node.prototype as unknown as Record<string, unknown>;
	const ElementProto = win.Element.prototype as unknown as Record<string, unknown>;
	const HTMLProto = win.HTMLElement.prototype as unknown as Record<string, unknown>;

	const define = (proto: Record<string, unknown>, name: string, value: unknown) =>
		Object.defineProperty(proto, name, { value, configurable: true, writable: true });

	define(NodeProto, "createEl", function (this: Node, tag: string, o?: ElInfo | string, cb?: (el: HTMLElement) => void) {
		const info: ElInfo = typeof o === "string" ? { cls: o } : { ...(o ?? {}) };
		info.parent = this;
		return makeEl(this.ownerDocument ?? doc, tag, info, cb);
	});
	define(NodeProto, "createDiv", function (this: Node & { createEl: typeof makeEl }, o?: ElInfo | string, cb?: (el: HTMLElement) => void) {
		return (this as unknown as { createEl: (t: string, o?: ElInfo | string, cb?: (el: HTMLElement) => void) => HTMLElement }).createEl("div", o, cb);
	});
	define(NodeProto, "createSpan", function (this: Node, o?: ElInfo | string, cb?: (el: HTMLElement) => void) {
		return (this as unknown as { createEl: (t: string, o?: ElInfo | string, cb?: (el: HTMLElement) => void) => HTMLElement }).createEl("span", o, cb);
	});
	define(NodeProto, "empty", function (this: Node) {
		while (this.firstChild) this.removeChild(this.firstChild);
	});
	define(NodeProto, "detach", function (this: Node) {
		this.parentNode?.removeChild(this);
	});
	define(NodeProto, "appendText", function (this: Node, val: string) {
		this.appendChild((this.ownerDocument ?? doc).createTextNode(val));
	});
	define(NodeProto, "instanceOf", function (this: Node, type: new () => unknown) {
		return this instanceof type;
	});
	Object.defineProperty(NodeProto, "doc", {
		configurable: true,
		get(this: Node) {
			return this.ownerDocument ?? doc;
		},
	});
	Object.defineProperty(NodeProto, "win", {
		configurable: true,
		get(this: Node) {
			return (this.ownerDocument ?? doc).defaultView ?? win;
		},
	});

	define(ElementProto, "setText", function (this: Element, val: string | DocumentFragment) {
		if (typeof val === "string") this.textContent = val;
		else {
			this.textContent = "";
			this.appendChild(val);
		}
	});
	define(ElementProto, "getText", function (this: Element) {
		return this.textContent ?? "";
	});
	define(ElementProto, "addClass", function (this: Element, ...cls: string[]) {
		this.classList.add(...cls.flatMap(classes));
	});
	define(ElementProto, "addClasses", function (this: Element, cls: string[]) {
		this.classList.add(...cls);
	});
	define(ElementProto, "removeClass", function (this: Element, ...cls: string[]) {
		this.classList.remove(...cls.flatMap(classes));
	});
	define(ElementProto, "removeClasses", function (this: Element, cls: string[]) {
		this.classList.remove(...cls);
	});
	define(ElementProto, "toggleClass", function (this: Element, cls: string | string[], value: boolean) {
		for (const c of Array.isArray(cls) ? cls : [cls]) this.classList.toggle(c, value);
	});
	define(ElementProto, "hasClass", function (this: Element, cls: string) {
		return this.classList.contains(cls);
	});
	define(ElementProto, "setAttr", function (this: Element, name: string, value: string | number | boolean | null) {
		setAttrValue(this, name, value);
	});
	define(ElementProto, "setAttrs", function (this: Element, attrs: Attrs) {
		for (const [k, v] of Object.entries(attrs)) setAttrValue(this, k, v);
	});
	define(ElementProto, "getAttr", function (this: Element, name: string) {
		return this.getAttribute(name);
	});
	define(ElementProto, "find", function (this: Element, selector: string) {
		return this.querySelector(selector);
	});
	define(ElementProto, "findAll", function (this: Element, selector: string) {
		return Array.from(this.querySelectorAll(selector));
	});
	define(HTMLProto, "setCssProps", function (this: HTMLElement, props: Record<string, string>) {
		for (const [k, v] of Object.entries(props)) this.style.setProperty(k, v);
	});
	define(HTMLProto, "setCssStyles", function (this: HTMLElement, styles: Record<string, string>) {
		Object.assign(this.style, styles);
	});
	define(HTMLProto, "show", function (this: HTMLElement) {
		this.style.removeProperty("display");
	});
	define(HTMLProto, "hide", function (this: HTMLElement) {
		this.style.setProperty("display", "none");
	});
	define(HTMLProto, "toggle", function (this: HTMLElement, show: boolean) {
		if (show) this.style.removeProperty("display");
		else this.style.setProperty("display", "none");
	});
	define(HTMLProto, "isShown", function (this: HTMLElement) {
		return this.style.display !== "none";
	});

	const UIEventProto = win.UIEvent.prototype as unknown as Record<string, unknown>;
	Object.defineProperty(UIEventProto, "targetNode", {
		configurable: true,
		get(this: Event) {
			const t = this.target;
			return t instanceof win.Node ? t : null;
		},
	});
	define(UIEventProto, "instanceOf", function (this: Event, type: new (...args: unknown[]) => unknown) {
		return this instanceof type;
	});

	const globals = win as unknown as Record<string, unknown>;
	globals.createEl = (tag: string, o?: ElInfo | string, cb?: (el: HTMLElement) => void) => makeEl(doc, tag, o, cb);
	globals.createDiv = (o?: ElInfo | string, cb?: (el: HTMLElement) => void) => makeEl(doc, "div", o, cb);
	globals.createSpan = (o?: ElInfo | string, cb?: (el: HTMLElement) => void) => makeEl(doc, "span", o, cb);
	globals.createFragment = (cb?: (el: DocumentFragment) => void) => {
		const fragment = doc.createDocumentFragment();
		cb?.(fragment);
		return fragment;
	};
	globals.activeDocument = doc;
	globals.activeWindow = win;
	globals.sleep = (ms: number) => new Promise((resolve) => win.setTimeout(resolve, ms));
}
