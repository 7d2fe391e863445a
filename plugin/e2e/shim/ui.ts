/** Small UI helpers: Keymap (modifier keys to a new tab, split or window), setIcon and setTooltip. */

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
