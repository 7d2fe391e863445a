/** The date scope a question's phrase made ("last week" → 11–17 Mar 2024), as one line for the inspector. */

import type { DateScope } from "../sidecar/wire";
import type { Fact } from "./inspect";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY_MS = 86_400_000;

const BASES: Record<string, string> = {
	note_date_then_mtime: "daily-note dates, then modified time",
};

const REASONS: Record<string, string> = {
	explicit_filter: "the date filter you set wins",
	nothing_in_range: "nothing in that range",
};

interface Day {
	year: number;
	month: number;
	day: number;
}

/** "2024-03-11" → its parts; null for anything that is not an ISO day. */
function parseDay(iso: string): Day | null {
	const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
	if (!m) return null;
	const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
	return { year: at.getUTCFullYear(), month: at.getUTCMonth(), day: at.getUTCDate() };
}

function dayBefore(d: Day): Day {
	const at = new Date(Date.UTC(d.year, d.month, d.day) - DAY_MS);
	return { year: at.getUTCFullYear(), month: at.getUTCMonth(), day: at.getUTCDate() };
}

function formatDay(d: Day): string {
	return `${d.day} ${MONTHS[d.month] ?? "?"} ${d.year}`;
}

/** [start, end) as people read it: "11–17 Mar 2024", "28 Feb – 5 Mar 2024", "since 1 Jan 2025", "until 9 Mar 2024". */
export function formatRange(start: string | null, end: string | null): string {
	const first = start === null ? null : parseDay(start);
	const after = end === null ? null : parseDay(end);
	const last = after === null ? null : dayBefore(after);
	if (first && last) {
		if (first.year === last.year && first.month === last.month && first.day === last.day) return formatDay(first);
		if (first.year === last.year && first.month === last.month) {
			return `${first.day}–${last.day} ${MONTHS[first.month] ?? "?"} ${first.year}`;
		}
		if (first.year === last.year) {
			return `${first.day} ${MONTHS[first.month] ?? "?"} – ${formatDay(last)}`;
		}
		return `${formatDay(first)} – ${formatDay(last)}`;
	}
	if (first) return `since ${formatDay(first)}`;
	if (last) return `until ${formatDay(last)}`;
	return "any date";
}

/** The inspector's "Dates" line; null when the question had no date phrase (or the sidecar does not say). */
export function dateScopeFact(scope: DateScope | null | undefined): Fact | null {
	if (!scope) return null;
	const head = `“${scope.phrase}” → ${formatRange(scope.start, scope.end)}`;
	if (scope.applied) {
		const basis = BASES[scope.basis] ?? scope.basis;
		const notes = `${scope.notes} ${scope.notes === 1 ? "note" : "notes"}`;
		return { label: "Dates", value: `${head} (${basis}; ${notes})` };
	}
	const reason = scope.fallback_reason === null ? "not applied" : (REASONS[scope.fallback_reason] ?? scope.fallback_reason);
	return { label: "Dates", value: `${head} — ignored: ${reason}` };
}
