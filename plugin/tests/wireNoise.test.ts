/** The optional `noise` and `boosts` of search hits, ask sources and related passages, read and refused. */

import { describe, expect, it } from "vitest";
import { parse } from "../src/sidecar/schema";
import { parseAskEvent, relatedBody, searchBody } from "../src/sidecar/wire";
import { askLines, fixtureJson, refusedAt } from "./helpers";

describe("noise and boosts on hits, sources and related passages", () => {
	const NOISE = { template: 60, links: 40, query: 0, informative: 0 };
	type Loose = Record<string, unknown>;
	const search = (edit: (hit: Loose) => void): Loose => {
		const body = structuredClone(fixtureJson("search.json")) as { results: Loose[] };
		edit(body.results[0]!);
		return body;
	};
	const retrieval = (edit: (source: Loose) => void): Loose => {
		const event = structuredClone(askLines()[0]) as { sources: Loose[] };
		edit(event.sources[0]!);
		return event;
	};
	const related = (edit: (passage: Loose) => void): Loose => {
		const body = structuredClone(fixtureJson("related.json")) as { results: { passage: Loose }[] };
		edit(body.results[0]!.passage);
		return body;
	};

	it("plain prose and older sidecars: no noise, no boosts", () => {
		for (const r of parse(searchBody, fixtureJson("search.json")).results) expect([r.noise, r.boosts]).toEqual([null, []]);
		const event = parseAskEvent(askLines()[0]);
		if (event?.type !== "retrieval") throw new Error("no retrieval");
		for (const s of event.sources) expect([s.noise, s.boosts]).toEqual([null, []]);
		for (const r of parse(relatedBody, fixtureJson("related.json")).results) expect(r.passage.noise).toBeNull();
	});

	it.each([
		[
			"a search hit",
			() => parse(searchBody, search((h) => Object.assign(h, { boosts: ["boilerplate"], noise: NOISE }))).results[0],
		],
		[
			"an ask source",
			() => {
				const event = parseAskEvent(retrieval((s) => Object.assign(s, { boosts: ["boilerplate"], noise: NOISE })));
				return event?.type === "retrieval" ? event.sources[0] : null;
			},
		],
	])("%s carries its noise and the boilerplate boost", (_name, run) => {
		expect(run()).toMatchObject({ boosts: ["boilerplate"], noise: NOISE });
	});

	it("a related passage carries its noise; a share a later sidecar adds is dropped", () => {
		const body = parse(relatedBody, related((p) => (p.noise = { ...NOISE, later: 5 })));
		expect(body.results[0]?.passage.noise).toEqual(NOISE);
		expect(body.results[1]?.passage.noise).toBeNull();
	});

	it.each([
		["a share that is not a number", search((h) => (h.noise = { ...NOISE, links: "40" })), "results[0].noise.links"],
		["noise that is not an object", search((h) => (h.noise = [60, 40])), "results[0].noise"],
		["noise without its informative share", search((h) => (h.noise = { template: 100, links: 0, query: 0 })), "results[0].noise.informative"],
		["boosts that are not a list", search((h) => (h.boosts = "boilerplate")), "results[0].boosts"],
	])("search rejects %s, naming the field", (_name, value, path) => {
		expect(refusedAt(() => parse(searchBody, value))).toBe(path);
	});

	it("a malformed source or passage noise is refused like any other bad field", () => {
		expect(() => parseAskEvent(retrieval((s) => (s.noise = { ...NOISE, query: null })))).toThrow(/sources\[0\]\.noise\.query/);
		expect(() => parse(relatedBody, related((p) => (p.noise = "template")))).toThrow(/results\[0\]\.passage\.noise/);
	});
});
