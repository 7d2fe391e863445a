/** The small muted badge on a passage that is mostly template, link-only or query lines; its tooltip says why. */

import type { NoiseBadge } from "../answer/noise";

/** Appends the badge to `parent`; nothing for a passage of plain prose. */
export function renderNoiseBadge(parent: HTMLElement, badge: NoiseBadge | null): void {
	if (badge === null) return;
	parent.createSpan({ cls: "ask-vault-noise", text: badge.label, attr: { "aria-label": badge.tooltip } });
}
