/** The plugin's side of tests/fixtures/shared-constants.json: the constants the sidecar must agree with, held once. */

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SAFE_LANGUAGES } from "../src/answer/fences";
import { DEFAULT_PORT, DEFAULT_SETTINGS, PROMPT_MAX_SOURCES } from "../src/settings";

const FIXTURE = new URL("../../tests/fixtures/shared-constants.json", import.meta.url);
const FIXTURE_NAME = "tests/fixtures/shared-constants.json";

type Side = "sidecar" | "plugin";
interface Shared {
	values: Record<string, unknown>;
	/** Per value, per side, the constant that holds it (null: that side has none). */
	owners: Record<string, Record<Side, string | null>>;
}

const shared = JSON.parse(readFileSync(FIXTURE, "utf8")) as Shared;

/** The plugin's real constants, under the fixture's names (sets as sorted lists, as the fixture holds them). */
const PLUGIN: Record<string, unknown> = {
	default_port: DEFAULT_PORT,
	default_chat_model: DEFAULT_SETTINGS.chatModel,
	// The plugin's "none configured" is the empty setting (no --embed-model); the fixture, like the sidecar, says null.
	default_embed_model: DEFAULT_SETTINGS.embedModel === "" ? null : DEFAULT_SETTINGS.embedModel,
	prompt_max_sources: PROMPT_MAX_SOURCES,
	safe_languages: [...SAFE_LANGUAGES].sort(),
};

/** Names both sides: the fixture is changed first, then the plugin's owner and the sidecar's. */
function mismatch(key: string, fixtureValue: unknown, pluginValue: unknown): string {
	const owners = shared.owners[key];
	const sidecar = owners?.sidecar ? ` and the sidecar's ${owners.sidecar}` : " (the sidecar has no copy)";
	let said = `says ${JSON.stringify(fixtureValue)}, the plugin's ${owners?.plugin ?? "?"} is ${JSON.stringify(pluginValue)}`;
	if (Array.isArray(fixtureValue) && Array.isArray(pluginValue)) {
		const inFixture = new Set(fixtureValue.map(String));
		const inPlugin = new Set(pluginValue.map(String));
		const onlyFixture = JSON.stringify([...inFixture].filter((v) => !inPlugin.has(v)));
		const onlyPlugin = JSON.stringify([...inPlugin].filter((v) => !inFixture.has(v)));
		said = `and the plugin's ${owners?.plugin ?? "?"} differ: only in the fixture ${onlyFixture}, only in the plugin ${onlyPlugin}`;
	}
	return (
		`${key}: ${FIXTURE_NAME} ${said}. ` +
		`Change ${FIXTURE_NAME} first, then the plugin's ${owners?.plugin ?? "?"}${sidecar}, so both suites pass.`
	);
}

describe(`the constants shared with the sidecar (${FIXTURE_NAME})`, () => {
	it("names, for every value, its owner on each side", () => {
		expect(Object.keys(shared.owners).sort(), "`values` and `owners` name different keys").toEqual(Object.keys(shared.values).sort());
		for (const [key, sides] of Object.entries(shared.owners)) {
			expect(Object.keys(sides).sort(), `owners.${key}`).toEqual(["plugin", "sidecar"]);
			expect(sides.plugin ?? sides.sidecar, `${key} is owned by neither side`).not.toBeNull();
		}
	});

	it("holds its lists sorted, without duplicates", () => {
		for (const [key, value] of Object.entries(shared.values)) {
			if (!Array.isArray(value)) continue;
			expect(value, `${key} is not sorted, or repeats an entry`).toEqual([...new Set(value.map(String))].sort());
		}
	});

	it("is checked here for every value the plugin owns", () => {
		const owned = Object.entries(shared.owners)
			.filter(([, sides]) => sides.plugin !== null)
			.map(([key]) => key)
			.sort();
		expect(Object.keys(PLUGIN).sort(), `${FIXTURE_NAME} gives the plugin ${owned.join(", ")}: add (or drop) the constant in PLUGIN`).toEqual(owned);
	});

	it.each(Object.keys(PLUGIN).sort())("%s: the plugin's constant equals the fixture", (key) => {
		expect(Object.keys(shared.values), `${FIXTURE_NAME} has no ${key}`).toContain(key);
		const fixtureValue = shared.values[key];
		const pluginValue = PLUGIN[key];
		expect(pluginValue, mismatch(key, fixtureValue, pluginValue)).toEqual(fixtureValue);
	});
});
