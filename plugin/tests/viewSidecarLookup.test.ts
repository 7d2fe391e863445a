// @vitest-environment jsdom
/** A missing sidecar program in the status bar and the settings tab: the exact install command, then where it was found. */
import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { App } from "obsidian";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as shim from "../e2e/shim/obsidian";
import { LookupStore } from "../src/desktop/commandLookup";
import { sidecarLookup } from "../src/desktop/locate";
import { applyServerEvent, initialConnection } from "../src/sidecar/events";
import { AskVaultSettingTab } from "../src/ui/settingTab";
import { StatusBar } from "../src/ui/statusBar";
import { app, plugin, useChatView, waitFor } from "./viewSetup";

useChatView();

const missing = { state: "missing" as const, command: "askvault", searched: ["/usr/bin/askvault"] };

describe("status bar", () => {
	it.each([
		["disconnected, program missing", false, true, "Ask Vault: sidecar not installed", "`pipx install askvault`"],
		["disconnected, nothing looked up", false, false, "Ask Vault: disconnected", "Not connected yet."],
		["connected, program missing", true, true, "Ask Vault: ready", "Connected."],
	])("%s", (_name, connected, isMissing, text, tooltip) => {
		const lookups = new LookupStore();
		const el = document.body.createDiv();
		const state = connected ? applyServerEvent(initialConnection, { type: "heartbeat" }) : initialConnection;
		const bar = new StatusBar(el, initialConnection, () => undefined, lookups);
		bar.update(state);
		lookups.set(isMissing ? missing : null);
		expect(el.textContent).toBe(text);
		expect(el.getAttribute("aria-label")).toContain(tooltip);
	});
});

describe("settings tab", () => {
	let root = "";
	const saved = { PATH: process.env.PATH, HOME: process.env.HOME };

	beforeEach(async () => {
		root = await realpath(await mkdtemp(path.join(tmpdir(), "ask-vault-settings-")));
		process.env.PATH = path.join(root, "empty");
		process.env.HOME = root;
		shim.Platform.isDesktopApp = true;
	});

	afterEach(async () => {
		shim.Platform.isDesktopApp = false;
		process.env.PATH = saved.PATH;
		process.env.HOME = saved.HOME;
		sidecarLookup.set(null);
		await rm(root, { recursive: true, force: true });
	});

	// Opened as Obsidian 1.13+ opens it, from getSettingDefinitions(); older versions render the same rows in display().
	const render = (tab: AskVaultSettingTab) => (tab as unknown as shim.PluginSettingTab).show();

	function programRow(tab: AskVaultSettingTab): HTMLElement | undefined {
		const rows = Array.from(tab.containerEl.querySelectorAll<HTMLElement>(".setting-item"));
		return rows.find((row) => row.querySelector(".setting-item-name")?.textContent === "Sidecar program");
	}

	it("shows the install command while askvault is missing, then where pipx put it", async () => {
		plugin.settings.autoStart = true;
		const tab = new AskVaultSettingTab(app as unknown as App, plugin, plugin);
		render(tab);

		const row = await waitFor(() => {
			const r = programRow(tab);
			return r?.textContent?.includes("not found") && r;
		}, "the missing program");
		expect(Array.from(row.querySelectorAll("code")).map((c) => c.textContent)).toEqual(["pipx install askvault", "uv tool install askvault"]);
		expect(row.querySelector("button")?.hidden).toBe(false);
		expect(sidecarLookup.current?.state).toBe("missing");

		await mkdir(path.join(root, ".local", "bin"), { recursive: true });
		await symlink(process.execPath, path.join(root, ".local", "bin", "askvault"));
		render(tab);
		const found = await waitFor(() => programRow(tab)?.textContent?.includes("Found: ") && programRow(tab), "the found program");
		expect(found.querySelector(".setting-item-description")?.textContent).toBe(`Found: ${path.join(root, ".local", "bin", "askvault")}`);
		expect(found.querySelector("button")?.hidden).toBe(true);
		expect(sidecarLookup.current).toEqual({ state: "found", command: "askvault", path: path.join(root, ".local", "bin", "askvault") });
	});

	it("without automatic start, a missing program stays out of the status bar", async () => {
		plugin.settings.autoStart = false;
		const tab = new AskVaultSettingTab(app as unknown as App, plugin, plugin);
		render(tab);
		await waitFor(() => programRow(tab)?.textContent?.includes("not found"), "the missing program");
		expect(sidecarLookup.current).toBeNull();
	});
});
