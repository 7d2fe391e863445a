// Driving the e2e page like a person: type and send a question, read the status bar and the last turn, screenshots.
import path from "node:path";
import { SCREENSHOTS, waitFor } from "./lib.mjs";

export const harness = (page, fn, arg) => page.evaluate(fn, arg);

export async function shot(page, name) {
	await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

export async function statusText(page) {
	return page.locator(".ask-vault-status").textContent();
}

/** Types a question into the pane and sends it with Enter. */
export async function ask(page, question) {
	await page.fill(".ask-vault-input", question);
	await page.press(".ask-vault-input", "Enter");
}

export async function lastTurn(page) {
	return harness(page, () => {
		const turns = window.askVaultHarness.turns();
		return turns[turns.length - 1] ?? null;
	});
}

export async function waitTurn(page, statuses, timeoutMs = 30_000) {
	return waitFor(`the answer to reach ${statuses.join("/")}`, async () => {
		const turn = await lastTurn(page);
		return turn && statuses.includes(turn.status) ? turn : null;
	}, timeoutMs);
}
