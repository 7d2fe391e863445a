/** Passages that say little of their own (template, link-only or query lines): the sidecar's `noise` as a badge. */

import { BOILERPLATE_BOOST, type Noise } from "../sidecar/wire";

type Part = "template" | "links" | "query";

/** In the badge's order, each with the words its tooltip uses. */
const PARTS: { key: Part; words: string }[] = [
	{ key: "template", words: "lines this vault repeats across many notes (templates, footers)" },
	{ key: "links", words: "lines that are only links" },
	{ key: "query", words: "query blocks (Dataview, Tasks)" },
];

export interface NoiseBadge {
	/** `template 100%`, `template 60% · links 40%`: the parts it has, in percent. */
	label: string;
	/** One sentence: what the passage mostly (or partly) is, and that it ranks lower when its score was lowered. */
	tooltip: string;
}

function present(noise: Noise | null | undefined): { key: Part; words: string; share: number }[] {
	if (noise === null || noise === undefined) return [];
	return PARTS.map((p) => ({ ...p, share: Math.round(noise[p.key]) })).filter((p) => p.share > 0);
}

/** `template 60% · links 40%` (zero parts left out); "" for a passage of plain prose (no `noise`). */
export function noiseLabel(noise: Noise | null | undefined): string {
	return present(noise)
		.map((p) => `${p.key} ${p.share}%`)
		.join(" · ");
}

function list(items: string[]): string {
	if (items.length < 3) return items.join(" and ");
	return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/**
 * "Mostly lines this vault repeats across many notes (templates, footers); it ranks below passages that say
 * more." "Mostly" when at most half of it is its own prose, else "Partly"; the ranking clause only when `lowered`
 * (a search hit carrying the `boilerplate` boost). "" for plain prose.
 */
export function noiseTooltip(noise: Noise | null | undefined, lowered = true): string {
	const parts = present(noise);
	if (!noise || parts.length === 0) return "";
	const what = `${noise.informative <= 50 ? "Mostly" : "Partly"} ${list(parts.map((p) => p.words))}`;
	return lowered ? `${what}; it ranks below passages that say more.` : `${what}.`;
}

/** The badge for a passage, or null for plain prose (no `noise`). */
export function noiseBadge(noise: Noise | null | undefined, lowered: boolean): NoiseBadge | null {
	const label = noiseLabel(noise);
	return label === "" ? null : { label, tooltip: noiseTooltip(noise, lowered) };
}

/** A search hit's or source's badge: its score was lowered when it carries the `boilerplate` boost. */
export function hitNoiseBadge(hit: { noise: Noise | null; boosts: readonly string[] }): NoiseBadge | null {
	return noiseBadge(hit.noise, hit.boosts.includes(BOILERPLATE_BOOST));
}
