import { describe, expect, it } from "vitest";
import { dateScopeFact, formatRange } from "../src/answer/dateScope";
import { type DateScope, parseAskEvent, type RetrievalEvent, searchBody } from "../src/sidecar/wire";
import { parse } from "../src/sidecar/schema";
import { askLines, fixtureJson } from "./helpers";

const scope = (over: Partial<DateScope> = {}): DateScope => ({
	phrase: "last week",
	start: "2026-11-16",
	end: "2026-11-23",
	applied: true,
	basis: "note_date_then_mtime",
	notes: 7,
	fallback_reason: null,
	...over,
});

describe("date range text", () => {
	it.each([
		["one week in a month", "2026-11-16", "2026-11-23", "16–22 Nov 2026"],
		["one day", "2024-03-06", "2024-03-07", "6 Mar 2024"],
		["a whole month", "2024-03-01", "2024-04-01", "1–31 Mar 2024"],
		["across months", "2024-02-26", "2024-03-04", "26 Feb – 3 Mar 2024"],
		["across years", "2023-12-28", "2024-01-04", "28 Dec 2023 – 3 Jan 2024"],
		["leap day end", "2024-02-01", "2024-03-01", "1–29 Feb 2024"],
		["open end", "2025-01-01", null, "since 1 Jan 2025"],
		["open start", null, "2024-03-10", "until 9 Mar 2024"],
		["both open", null, null, "any date"],
		["not a day", "March", null, "any date"],
	])("%s", (_name, start, end, text) => {
		expect(formatRange(start, end)).toBe(text);
	});
});

describe("the inspector's Dates line", () => {
	it.each([
		["applied", scope(), "“last week” → 16–22 Nov 2026 (daily-note dates, then modified time; 7 notes)"],
		["one note", scope({ notes: 1 }), "“last week” → 16–22 Nov 2026 (daily-note dates, then modified time; 1 note)"],
		[
			"nothing in range",
			scope({ applied: false, notes: 0, fallback_reason: "nothing_in_range" }),
			"“last week” → 16–22 Nov 2026 — ignored: nothing in that range",
		],
		[
			"explicit filter",
			scope({ applied: false, notes: 0, fallback_reason: "explicit_filter" }),
			"“last week” → 16–22 Nov 2026 — ignored: the date filter you set wins",
		],
		["unknown reason", scope({ applied: false, fallback_reason: "later" }), "“last week” → 16–22 Nov 2026 — ignored: later"],
		["unknown basis", scope({ basis: "frontmatter" }), "“last week” → 16–22 Nov 2026 (frontmatter; 7 notes)"],
	])("%s", (_name, value, text) => {
		expect(dateScopeFact(value)).toEqual({ label: "Dates", value: text });
	});

	it("is absent without a phrase", () => {
		expect(dateScopeFact(null)).toBeNull();
		expect(dateScopeFact(undefined)).toBeNull();
	});
});

describe("wire", () => {
	it("a retrieval event without date_scope (an older sidecar) reads as null", () => {
		const line = { ...(askLines()[0] as Record<string, unknown>) };
		delete line.date_scope;
		expect((parseAskEvent(line) as RetrievalEvent).date_scope).toBeNull();
	});

	it("a retrieval event carries the scope", () => {
		const line = { ...(askLines()[0] as Record<string, unknown>), date_scope: scope() };
		expect((parseAskEvent(line) as RetrievalEvent).date_scope).toEqual(scope());
	});

	it("the golden search body parses with its null scope", () => {
		expect(parse(searchBody, fixtureJson("search.json")).date_scope).toBeNull();
	});

	it("a malformed scope is refused", () => {
		const line = { ...(askLines()[0] as Record<string, unknown>), date_scope: { phrase: 3 } };
		expect(() => parseAskEvent(line)).toThrow();
	});
});
