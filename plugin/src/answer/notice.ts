/** The line under an answer that says what was made inert in it (kinds and hosts, never a URL). */

import type { NeutralisedItem } from "../sidecar/wire";
import { cleanTarget, hostOf } from "./urls";

const NOUNS: Readonly<Record<string, [string, string]>> = {
	image: ["remote image", "remote images"],
	embed: ["embed", "embeds"],
	link: ["external link", "external links"],
	definition: ["link definition", "link definitions"],
	html: ["HTML tag", "HTML tags"],
	code: ["runnable code block", "runnable code blocks"],
};

/** How many targets a kind lists before "+N more". */
const MAX_TARGETS = 3;

/** A host, tag or language only: a full URL that slipped through is cut down to its host. */
export function targetLabel(target: string | null): string | null {
	if (target === null) return null;
	const host = target.includes("://") ? hostOf(target) : cleanTarget(target.split(/[/?#\s]/, 1)[0] ?? "");
	return host === null || host === "" ? null : host;
}

/**
 * "Made inert: 1 remote image (evil.example), 2 external links (a.example, b.example)." — kinds in the order they
 * first appear; null when nothing was made inert and the sidecar did not say it changed the answer.
 */
export function neutralisedNotice(items: readonly NeutralisedItem[], sanitized = false): string | null {
	const groups = new Map<string, { count: number; targets: string[] }>();
	for (const item of items) {
		const group = groups.get(item.kind) ?? { count: 0, targets: [] };
		group.count += 1;
		const label = targetLabel(item.target);
		if (label !== null && !group.targets.includes(label)) group.targets.push(label);
		groups.set(item.kind, group);
	}
	if (groups.size === 0) return sanitized ? "Parts of this answer were made inert." : null;
	const parts = [...groups.entries()].map(([kind, { count, targets }]) => {
		const [one, many] = NOUNS[kind] ?? [cleanTarget(kind) || "item", `${cleanTarget(kind) || "item"}s`];
		const shown = targets.slice(0, MAX_TARGETS);
		const more = targets.length > MAX_TARGETS ? ` +${targets.length - MAX_TARGETS} more` : "";
		const where = shown.length > 0 ? ` (${shown.join(", ")}${more})` : "";
		return `${count} ${count === 1 ? one : many}${where}`;
	});
	return `Made inert: ${parts.join(", ")}.`;
}

/**
 * The line under an answer the sidecar cut short, saying why (its `done_reason`), so a sentence that stops
 * half-way reads as cut and not as the model's last word; null for an answer that ended on its own.
 */
export function truncatedNotice(done: { truncated: boolean; done_reason: string | null } | null): string | null {
	if (done === null || !done.truncated) return null;
	switch (done.done_reason) {
		case "length":
			return "The answer was cut off: the model reached its length limit.";
		case "repetition":
			return "The answer was stopped: the model kept repeating itself.";
		default:
			return "The answer was cut off before the model finished.";
	}
}
