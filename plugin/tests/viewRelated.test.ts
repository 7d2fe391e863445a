// @vitest-environment jsdom
/** The "Related notes" view: follows the active note, shows each related note with its score, previews on hover, opens on click. */
import { describe, expect, it } from "vitest";
import * as shim from "../e2e/shim/obsidian";
import { EMPTY_TEXT, LOADING_TEXT, NO_NOTE_TEXT } from "../src/answer/related";
import { VIEW_TYPE_RELATED } from "../src/constants";
import { RelatedView } from "../src/ui/relatedView";
import { bodyOf, fixtureJson, jsonResponse } from "./helpers";
import { app, calls, routes, useChatView, waitFor } from "./viewSetup";

useChatView();

const golden = () =>
	fixtureJson("related.json") as { path: string; results: { path: string; title: string; passage: { heading_path: string[] } }[] };
const asked = () => calls.filter((c) => c.url.endsWith("/api/related")).map((c) => bodyOf(c));

/** Answers each path with the golden results (minus the note itself), under that path. */
function answerRelated(): void {
	routes["/api/related"] = (call) => {
		const path = bodyOf(call).path as string;
		const body = golden();
		return jsonResponse({ ...body, path, results: body.results.filter((r) => r.path !== path) });
	};
}

async function openRelated(): Promise<RelatedView> {
	for (const path of ["Homelab/Kodi.md", "Homelab/Postgres.md", "Journal/2026-11-02.md", "Recipes/photo.png"]) app.vault.addFile__(path);
	expect(app.executeCommandById("ask-vault:open-related")).toBe(true);
	const view = await waitFor(() => app.workspace.getLeavesOfType(VIEW_TYPE_RELATED)[0]?.view, "the related view");
	if (!(view instanceof RelatedView)) throw new Error("not a RelatedView");
	return view;
}

function show(path: string | null): void {
	app.workspace.setActiveFile__(path === null ? null : app.vault.getFileByPath(path));
}

const message = (v: RelatedView) => v.contentEl.querySelector(".ask-vault-related-message")?.textContent;
/**
 * What the view shows: the note it is for (its header; none when hidden) and whether its related notes are still
 * being found, failed (the message line is an error) or shown (the list, or "No related notes.").
 */
function shown(v: RelatedView): { kind: "no-note" | "loading" | "failed" | "ready"; path: string | null } {
	const header = v.contentEl.querySelector(".ask-vault-related-note")!;
	const line = v.contentEl.querySelector(".ask-vault-related-message")!;
	if (header.classList.contains("is-hidden")) return { kind: "no-note", path: null };
	const kind = line.textContent === LOADING_TEXT ? "loading" : line.classList.contains("is-error") ? "failed" : "ready";
	return { kind, path: header.textContent };
}
const entries = (v: RelatedView) =>
	Array.from(v.contentEl.querySelectorAll(".ask-vault-related-item")).map((li) => [
		li.querySelector(".ask-vault-related-title")?.textContent,
		li.querySelector(".ask-vault-related-score")?.textContent,
		li.querySelector(".ask-vault-related-trail")?.textContent,
	]);

describe("Related notes", () => {
	it("opens in the right sidebar from its command and says when no note is open", async () => {
		const v = await openRelated();
		expect(v.containerEl.closest(".mod-right-split")).not.toBeNull();
		expect(v.getDisplayText()).toBe("Related notes");
		expect(message(v)).toBe(NO_NOTE_TEXT);
		expect(app.commands.get("ask-vault:open-related")?.hotkeys).toBeUndefined();
	});

	it("shows the active note's related notes, each with its score and closest passage", async () => {
		answerRelated();
		const v = await openRelated();
		show("Homelab/Kodi.md");
		expect(message(v)).toBe("Finding related notes…");
		await waitFor(() => shown(v).kind === "ready", "the related notes");
		expect(asked()).toEqual([{ path: "Homelab/Kodi.md" }]);
		expect(v.contentEl.querySelector(".ask-vault-related-note")?.textContent).toBe("Homelab/Kodi.md");
		expect(message(v)).toBe("Closest in meaning");
		expect(entries(v)).toEqual([
			["2026-11-02", "0.741", "Journal/2026-11-02.md › 2026-11-02"],
			["Postgres", "0.519", "Homelab/Postgres.md › Postgres › Connection"],
		]);
		expect(v.contentEl.querySelector(".ask-vault-related-score")?.getAttribute("aria-label")).toBe("Similarity 0.741");
	});

	it("a passage that is mostly links carries a muted badge with its share; one of plain prose none", async () => {
		routes["/api/related"] = (call) => {
			const body = structuredClone(golden()) as { results: { passage: Record<string, unknown> }[] };
			body.results[1]!.passage.noise = { template: 0, links: 80, query: 0, informative: 20 };
			return jsonResponse({ ...body, path: bodyOf(call).path });
		};
		const v = await openRelated();
		show("Homelab/Kodi.md");
		await waitFor(() => shown(v).kind === "ready", "the related notes");
		const items = Array.from(v.contentEl.querySelectorAll(".ask-vault-related-item"));
		expect(items.map((li) => li.querySelector(".ask-vault-noise")?.textContent ?? null)).toEqual([null, "links 80%"]);
		const badge = items[1]!.querySelector(".ask-vault-noise")!;
		expect(badge.getAttribute("aria-label")).toBe("Mostly lines that are only links.");
		// Beside the trail, which still reads as the trail alone.
		expect(badge.parentElement).toBe(items[1]!.querySelector(".ask-vault-related-trail")?.parentElement);
		expect(entries(v)[1]).toEqual(["Postgres", "0.519", "Homelab/Postgres.md › Postgres › Connection"]);
	});

	it("hovering an entry asks Page preview for that note at its passage; clicking opens it there", async () => {
		answerRelated();
		const v = await openRelated();
		show("Homelab/Kodi.md");
		await waitFor(() => shown(v).kind === "ready", "the related notes");
		const link = v.contentEl.querySelectorAll<HTMLElement>("a.ask-vault-related-link")[1]!;
		link.querySelector("span")!.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
		const payload = shim.records.hoverLinks[shim.records.hoverLinks.length - 1]!;
		expect(payload).toMatchObject({
			source: VIEW_TYPE_RELATED,
			linktext: "Homelab/Postgres.md#Connection",
			sourcePath: "Homelab/Kodi.md",
			targetEl: link,
		});
		expect(payload.hoverParent).toBe(v);
		expect((payload.event as MouseEvent).type).toBe("mouseover");

		link.dispatchEvent(new MouseEvent("click", { bubbles: true, ctrlKey: true }));
		expect(shim.records.opened.pop()).toEqual({ linktext: "Homelab/Postgres.md#Connection", sourcePath: "", newLeaf: "tab", state: null });
		// Opening it makes it the active note, which the view then follows.
		await waitFor(() => shown(v).kind === "ready" && shown(v).path === "Homelab/Postgres.md", "the opened note's related notes");
		expect(asked().map((a) => a.path)).toEqual(["Homelab/Kodi.md", "Homelab/Postgres.md"]);
		expect(entries(v).map((e) => e[0])).toEqual(["2026-11-02"]);
	});

	it("follows note changes once they settle, and ignores focus on itself and non-Markdown files", async () => {
		answerRelated();
		const v = await openRelated();
		show("Homelab/Kodi.md");
		show("Homelab/Postgres.md");
		show("Journal/2026-11-02.md");
		await waitFor(() => shown(v).kind === "ready", "the related notes");
		expect(asked()).toEqual([{ path: "Journal/2026-11-02.md" }]);
		app.workspace.trigger("active-leaf-change", v.leaf);
		expect(shown(v).kind).toBe("ready");
		show("Recipes/photo.png");
		expect(message(v)).toBe(NO_NOTE_TEXT);
		expect(v.contentEl.querySelectorAll(".ask-vault-related-item")).toHaveLength(0);
	});

	it.each([
		["no related notes", () => jsonResponse({ path: "Homelab/Kodi.md", method: "dense", results: [], timings_ms: {} }), EMPTY_TEXT],
		[
			"a note the sidecar has not indexed: its message as written",
			() => jsonResponse({ error: { code: "not_found", message: "no indexed note at this path" } }, 404),
			"no indexed note at this path",
		],
	])("%s", async (_name, route, text) => {
		routes["/api/related"] = route;
		const v = await openRelated();
		show("Homelab/Kodi.md");
		await waitFor(() => shown(v).kind !== "loading", "an answer");
		expect(message(v)).toBe(text);
	});

	it("an unreachable sidecar is said in the connection's words, and Refresh asks again", async () => {
		routes["/api/related"] = () => {
			throw new TypeError("Failed to fetch");
		};
		const v = await openRelated();
		show("Homelab/Kodi.md");
		await waitFor(() => shown(v).kind === "failed", "the failure");
		expect(message(v)).toBe('Cannot reach the Ask Vault sidecar at http://127.0.0.1:27999 (Failed to fetch). Is "askvault serve" running?');
		expect(v.contentEl.querySelector(".ask-vault-related-message")?.getAttribute("role")).toBe("alert");
		answerRelated();
		v.containerEl.querySelector<HTMLElement>(".view-action[aria-label='Refresh related notes']")!.click();
		await waitFor(() => shown(v).kind === "ready", "the related notes");
		expect(v.contentEl.querySelector(".ask-vault-related-message")?.hasAttribute("role")).toBe(false);
	});
});
