// End-to-end: a PDF dropped into the vault while the REAL sidecar runs is read by its watcher page by page; asked
// about, the answer cites the PDF's page, the source list and the hover card say "page 2", and a click opens
// Obsidian's PDF view at that page (`#page=2`).
import assert from "node:assert/strict";
import path from "node:path";
import { before, describe, it } from "node:test";
import { REPO_DIR, run, waitFor } from "./lib.mjs";
import { ask, harness, lastTurn, shot, waitTurn } from "./page.mjs";
import { env, PYTHON, sidecarStatus, useE2E } from "./setup.mjs";

useE2E();

const PDF = "Manuals/Boiler manual.pdf";
const PAGES = [
	"Boiler manual. Model TX-40, a wall-mounted condensing boiler.",
	"Boiler pressure: the gauge on the boiler should read between 1.0 and 1.5 bar when the heating is cold.",
	"Annual service: the installer checks the flue and the condensate trap every October.",
];

describe("a PDF in the vault, cited at its page", () => {
	before(async () => {
		// Written with the test suite's own PDF writer (fpdf2, a dev dependency), as a scanner or a browser would.
		const script = [
			"import json, sys",
			"from pathlib import Path",
			"from tests.extract.pdfs import write_pdf",
			"target = Path(sys.argv[1])",
			"target.parent.mkdir(parents=True, exist_ok=True)",
			"write_pdf(target, json.loads(sys.argv[2]))",
		].join("\n");
		await run(PYTHON, ["-c", script, path.join(env.vault, PDF), JSON.stringify(PAGES)], { cwd: REPO_DIR });
		await waitFor(
			"the watcher to index the PDF",
			async () => {
				const s = await sidecarStatus();
				return s.index.state === "idle" && s.vault.notes >= 6 ? s : null;
			},
			60_000,
		);
	});

	it("the answer's first source is the PDF's page 2, listed as a page", async () => {
		const page = env.page;
		await page.click(".side-dock-ribbon-action[aria-label='Open chat']");
		await page.waitForSelector(".ask-vault-view .ask-vault-input");
		await ask(page, "What should the boiler pressure gauge read?");
		const turn = await waitTurn(page, ["done", "error"]);
		assert.equal(turn.status, "done", `answer failed: ${JSON.stringify(turn.error)}`);
		const first = turn.retrieval.sources.find((s) => s.n === 1);
		assert.equal(first.path, PDF);
		assert.equal(first.page, 2);
		assert.deepEqual(first.heading_path, ["Page 2"]);
		const listed = await page.locator(".ask-vault-source-list li").first().textContent();
		assert.equal(listed, `[1] ${PDF} › Page 2 page 2`);
	});

	it("hovering the citation previews the PDF at the page and the card says so", async () => {
		const page = env.page;
		await page.hover(".ask-vault-answer-body a.ask-vault-citation >> nth=0");
		const linktext = await waitFor("a hover-link event", () =>
			harness(page, () => window.askVaultHarness.records.hoverLinks.at(-1)?.linktext ?? null),
		);
		assert.equal(linktext, `${PDF}#page=2`);
		const card = page.locator(".ask-vault-hover-card");
		await card.waitFor();
		assert.match(await card.locator(".ask-vault-hover-ranks").textContent(), /· page 2$/);
		assert.ok((await card.locator(".ask-vault-hover-text").textContent()).includes("1.0 and 1.5 bar"));
		await shot(page, "pdf-hover-card");
		await page.mouse.move(5, 5);
	});

	it("clicking the citation opens the PDF at its page", async () => {
		const page = env.page;
		const turn = await lastTurn(page);
		assert.equal(turn.retrieval.sources.find((s) => s.n === 1).path, PDF);
		await page.click(".ask-vault-answer-body a.ask-vault-citation >> nth=0");
		const opened = await harness(page, () => window.askVaultHarness.records.opened.at(-1));
		assert.deepEqual(opened, { linktext: `${PDF}#page=2`, sourcePath: "", newLeaf: false, state: null });
	});
});
