/** The settings tab's rows as Obsidian 1.13's declarative definitions, and their rendering on older Obsidian. */

import { Setting } from "obsidian";

/** One row: what Obsidian 1.13 calls a render definition (its name and description are searchable there). */
export interface Row {
	name: string;
	desc?: string;
	/** Builds the row's controls; may return a cleanup, run when the tab is hidden. */
	render: (setting: Setting) => void | (() => void);
}

/** A group of rows under a heading; hidden (and left out of search) when `visible` says so. */
export interface RowGroup {
	type: "group";
	heading: string;
	visible: () => boolean;
	items: Row[];
}

export type TabItem = Row | RowGroup;

const isGroup = (item: TabItem): item is RowGroup => "type" in item && item.type === "group";

/**
 * Renders the rows the way Obsidian 1.13 renders them from `getSettingDefinitions()` (a Setting with the name
 * and description, then the row's own `render`), for the versions before 1.13 that call `display()` instead.
 * Returns the rows' cleanups, to run when the tab is hidden.
 */
export function renderItems(containerEl: HTMLElement, items: TabItem[]): (() => void)[] {
	const cleanups: (() => void)[] = [];
	const row = (def: Row): void => {
		const setting = new Setting(containerEl).setName(def.name);
		if (def.desc !== undefined) setting.setDesc(def.desc);
		const cleanup = def.render(setting);
		if (typeof cleanup === "function") cleanups.push(cleanup);
	};
	for (const item of items) {
		if (!isGroup(item)) {
			row(item);
			continue;
		}
		if (!item.visible()) continue;
		new Setting(containerEl).setName(item.heading).setHeading();
		item.items.forEach(row);
	}
	return cleanups;
}
