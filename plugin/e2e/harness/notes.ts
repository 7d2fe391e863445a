/**
 * The e2e page's notes: the vault's files in the shim's Vault, the open note shown in the main area, and (opt-in)
 * a stand-in for Obsidian's Page preview that answers `hover-link` with a popover of the note at the linked heading.
 */

import { renderMarkdown } from "../shim/markdown";
import * as obsidian from "../shim/obsidian";

export interface NoteFile {
	path: string;
	text: string;
}

/** The lines of `text` under `heading` (down to the next heading of the same or a higher level); all of it without one. */
export function section(text: string, heading: string): string {
	const lines = text.split("\n");
	if (heading === "") return text;
	const start = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, "").trim() === heading);
	if (start === -1) return text;
	const level = (lines[start]?.match(/^#+/)?.[0] ?? "#").length;
	const after = lines.slice(start + 1).findIndex((l) => {
		const m = l.match(/^(#{1,6}) /);
		return m !== null && (m[1] ?? "").length <= level;
	});
	return lines.slice(start, after === -1 ? undefined : start + 1 + after).join("\n");
}

export class Notes {
	private readonly texts = new Map<string, string>();
	private previewEl: HTMLElement | null = null;

	constructor(private readonly app: obsidian.App) {
		app.workspace.on("file-open", (file) => this.show(file as obsidian.TFile | null));
	}

	add(files: NoteFile[]): void {
		for (const f of files) {
			this.texts.set(f.path, f.text);
			this.app.vault.addFile__(f.path, f.text);
		}
	}

	/** Opens a note the way clicking it in the file explorer would: it becomes the active note. */
	open(path: string): void {
		const file = this.app.vault.getFileByPath(path);
		if (!file) throw new Error(`no note ${path} in the e2e vault`);
		this.app.workspace.setActiveFile__(file);
	}

	/** The main area shows the open note (the static "Homelab" note until one is opened). */
	private show(file: obsidian.TFile | null): void {
		const main = document.querySelector(".workspace-split.mod-root .harness-note");
		if (!main || !file) return;
		main.empty();
		renderMarkdown(document, this.texts.get(file.path) ?? "", main as HTMLElement);
	}

	/** From now on `hover-link` shows a popover of the note at its heading, and sets the hover parent's popover. */
	enablePagePreview(): void {
		this.app.workspace.on("hover-link", (payload) => this.preview(payload as HoverLink));
	}

	private preview(p: HoverLink): void {
		const { path, subpath } = obsidian.parseLinktext(p.linktext);
		const text = this.texts.get(path) ?? this.texts.get(`${path}.md`);
		if (text === undefined) return;
		this.hidePreview(p.hoverParent);
		const popover = new obsidian.HoverPopover();
		const el = popover.hoverEl;
		el.addClass("popover", "hover-popover");
		el.setAttr("data-linktext", p.linktext);
		const body = el.createDiv({ cls: "markdown-preview-view" });
		renderMarkdown(document, section(text, subpath.replace(/^#/, "")), body);
		const box = p.targetEl.getBoundingClientRect();
		el.style.top = `${Math.round(box.top)}px`;
		el.style.left = `${Math.max(8, Math.round(box.left - 380))}px`;
		document.body.appendChild(el);
		this.previewEl = el;
		p.hoverParent.hoverPopover = popover;
		p.targetEl.addEventListener("mouseleave", () => this.hidePreview(p.hoverParent), { once: true });
	}

	private hidePreview(parent: { hoverPopover: unknown }): void {
		this.previewEl?.detach();
		this.previewEl = null;
		parent.hoverPopover = null;
	}
}

interface HoverLink {
	linktext: string;
	targetEl: HTMLElement;
	hoverParent: { hoverPopover: unknown };
}
