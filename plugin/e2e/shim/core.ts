/** The shim's foundations: API version checks, the records tests assert on, Platform, path helpers, Events and Component. */

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
	/** Files opened with the system's default app (the `electron` shim). */
	openedFiles: [] as string[],
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
	/** Test hook: the child components, in the order they were added (Obsidian keeps them as `_children`). */
	children__(): readonly Component[] {
		return this._children;
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
