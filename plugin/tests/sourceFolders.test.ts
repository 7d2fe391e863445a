// @vitest-environment jsdom
/** Files in folders beside the vault: which passage is one, and a click opens it with the default app, never as a note. */
import { afterEach, describe, expect, it, vi } from "vitest";
import * as shim from "../e2e/shim/obsidian";
import { type FolderSource, outsideFile, outsideNotice } from "../src/answer/sourceFolders";
import { openLocated } from "../src/ui/openNote";

const SOURCES: FolderSource[] = [
	{ label: "Docs", path: "/home/me/Nextcloud/Docs", notes: 12 },
	{ label: "Work notes", path: "C:\\Users\\me\\Work\\", notes: 3 },
];

describe("files in a folder beside the vault", () => {
	it.each([
		["a source's file", "Docs:guide/setup.md", { label: "Docs", rel: "guide/setup.md", file: "/home/me/Nextcloud/Docs/guide/setup.md" }],
		["Windows separators", "Work notes:a/b.pdf", { label: "Work notes", rel: "a/b.pdf", file: "C:\\Users\\me\\Work\\a\\b.pdf" }],
		["a vault note", "Homelab/Postgres.md", null],
		["a colon deeper in a vault path", "Notes/a:b.md", null],
		["a label the sidecar did not report", "Old:x.md", null],
		["an empty label", ":x.md", null],
	])("%s", (_name, path, expected) => {
		expect(outsideFile(path, SOURCES)).toEqual(expected);
	});

	it("says where the file is when it cannot be opened here", () => {
		const found = outsideFile("Docs:guide/setup.md", SOURCES)!;
		expect(outsideNotice(found)).toBe(
			'"guide/setup.md" is in Docs, a folder beside the vault: open /home/me/Nextcloud/Docs/guide/setup.md on the computer that runs the sidecar.',
		);
	});
});

describe("opening a passage", () => {
	const app = new shim.App() as unknown as import("obsidian").App;
	const click = new MouseEvent("click");
	const desktop = shim.Platform.isDesktopApp;
	afterEach(() => {
		shim.Platform.isDesktopApp = desktop;
	});

	it("opens a source's file with the system's default app on the desktop, never as a note", async () => {
		shim.Platform.isDesktopApp = true;
		const opened = shim.records.opened.length;
		openLocated(app, { path: "Docs:guide/setup.md", heading_path: ["Setup"], start_line: 3 }, click, SOURCES);
		await vi.waitFor(() => expect(shim.records.openedFiles.at(-1)).toBe("/home/me/Nextcloud/Docs/guide/setup.md"));
		expect(shim.records.opened.length).toBe(opened);
	});

	it("says where it is on a phone", () => {
		shim.Platform.isDesktopApp = false;
		openLocated(app, { path: "Docs:guide/setup.md", heading_path: [], start_line: 1 }, click, SOURCES);
		expect(shim.records.notices.at(-1)).toContain("a folder beside the vault");
	});

	it("opens a vault note as before", () => {
		openLocated(app, { path: "Homelab/Postgres.md", heading_path: [], start_line: 4 }, click, SOURCES);
		expect(shim.records.opened.at(-1)).toMatchObject({ linktext: "Homelab/Postgres.md", state: { eState: { line: 3 } } });
	});
});
