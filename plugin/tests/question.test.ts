import { describe, expect, it } from "vitest";
import { aboutNote, aboutSelection, folderOf, MAX_SELECTION_CHARS } from "../src/answer/question";

describe("scoped questions", () => {
	it.each([
		["Homelab/Kodi.md", "Homelab"],
		["A/B/C.md", "A/B"],
		["Root.md", ""],
	])("folderOf(%s) = %j", (path, folder) => {
		expect(folderOf(path)).toBe(folder);
	});

	it("about a note: folder filter and the title in the question", () => {
		expect(aboutNote("  when is it cleaned? ", { path: "Homelab/Kodi.md", title: "Kodi" })).toEqual({
			question: 'About the note "Kodi": when is it cleaned?',
			filters: { folder: "Homelab" },
			context: 'About "Kodi"',
		});
	});

	it("about a note at the vault root: no folder filter", () => {
		expect(aboutNote("q", { path: "Inbox.md", title: "Inbox" }).filters).toBeUndefined();
	});

	it("about a selection: the passage is quoted under the question", () => {
		const s = aboutSelection("What does this mean?", "line one\nline two", { path: "A.md", title: "A" });
		expect(s.question).toBe('What does this mean?\n\nAbout this passage from "A":\n> line one\n> line two');
		expect(s.filters).toBeUndefined();
		expect(s.context).toBe('About a selection in "A"');
	});

	it("cuts very long selections", () => {
		const s = aboutSelection("q", "x".repeat(MAX_SELECTION_CHARS * 2), null);
		expect(s.question.length).toBeLessThan(MAX_SELECTION_CHARS + 100);
		expect(s.question.endsWith("…")).toBe(true);
	});
});
