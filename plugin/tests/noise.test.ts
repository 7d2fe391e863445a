import { describe, expect, it } from "vitest";
import { hitNoiseBadge, noiseBadge, noiseLabel, noiseTooltip } from "../src/answer/noise";
import type { Noise } from "../src/sidecar/wire";

const noise = (template: number, links: number, query: number): Noise => ({
	template,
	links,
	query,
	informative: 100 - template - links - query,
});

const TEMPLATE = "lines this vault repeats across many notes (templates, footers)";
const LOWER = "; it ranks below passages that say more.";

describe("the noise badge's label", () => {
	it.each<[string, Noise | null | undefined, string]>([
		["absent (plain prose)", null, ""],
		["undefined", undefined, ""],
		["all zero", noise(0, 0, 0), ""],
		["all template", noise(100, 0, 0), "template 100%"],
		["links only", noise(0, 80, 0), "links 80%"],
		["query only", noise(0, 0, 25), "query 25%"],
		["two parts, zero left out", noise(60, 40, 0), "template 60% · links 40%"],
		["all three, in order", noise(10, 20, 30), "template 10% · links 20% · query 30%"],
		["a fraction is rounded", { template: 33.4, links: 0, query: 0, informative: 66.6 }, "template 33%"],
		["below half a percent is left out", { template: 0.4, links: 5, query: 0, informative: 94.6 }, "links 5%"],
	])("%s", (_name, value, expected) => {
		expect(noiseLabel(value)).toBe(expected);
	});
});

describe("the noise badge's tooltip", () => {
	it.each<[string, Noise | null, boolean, string]>([
		["absent", null, true, ""],
		["all template, lowered", noise(100, 0, 0), true, `Mostly ${TEMPLATE}${LOWER}`],
		["links, lowered", noise(0, 80, 0), true, `Mostly lines that are only links${LOWER}`],
		["half its own prose is still mostly noise", noise(0, 50, 0), true, `Mostly lines that are only links${LOWER}`],
		["a little noise", noise(0, 0, 30), true, `Partly query blocks (Dataview, Tasks)${LOWER}`],
		["two parts", noise(60, 40, 0), true, `Mostly ${TEMPLATE} and lines that are only links${LOWER}`],
		[
			"three parts",
			noise(30, 30, 30),
			true,
			`Mostly ${TEMPLATE}, lines that are only links and query blocks (Dataview, Tasks)${LOWER}`,
		],
		["not lowered: no ranking clause", noise(100, 0, 0), false, `Mostly ${TEMPLATE}.`],
	])("%s", (_name, value, lowered, expected) => {
		expect(noiseTooltip(value, lowered)).toBe(expected);
	});

	it("claims the lower rank by default", () => {
		expect(noiseTooltip(noise(100, 0, 0))).toBe(
			"Mostly lines this vault repeats across many notes (templates, footers); it ranks below passages that say more.",
		);
	});
});

describe("badges", () => {
	it("none for plain prose", () => {
		expect(noiseBadge(null, true)).toBeNull();
		expect(hitNoiseBadge({ noise: null, boosts: ["boilerplate"] })).toBeNull();
	});

	it.each<[string[], boolean]>([
		[["boilerplate"], true],
		[["identifier:kodi", "boilerplate"], true],
		// Dense or keyword mode, or the penalty turned off: the shares are reported, the score was not lowered.
		[[], false],
		[["mention:[[Kodi]]"], false],
	])("a hit with boosts %j says it ranks lower: %s", (boosts, lowered) => {
		const badge = hitNoiseBadge({ noise: noise(0, 80, 0), boosts });
		expect(badge?.label).toBe("links 80%");
		expect(badge?.tooltip.endsWith(LOWER)).toBe(lowered);
	});
});
