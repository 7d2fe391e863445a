// Runs every e2e/*.e2e.test.mjs, one file at a time (each sets up its own sidecar and browser), with Node's test
// runner (spec reporter), then closes with one plain summary line,
// "e2e: N passed, N failed", counting cancelled tests (e.g. after a failed setup) as failed. Exits non-zero on any failure.
import { readdirSync } from "node:fs";
import path from "node:path";
import { run } from "node:test";
import { spec } from "node:test/reporters";
import { E2E_DIR } from "./lib.mjs";

let passed = 0;
let failed = 0;
const files = readdirSync(E2E_DIR)
	.filter((name) => name.endsWith(".e2e.test.mjs"))
	.sort()
	.map((name) => path.join(E2E_DIR, name));
const stream = run({ files, concurrency: 1 });
stream.on("test:pass", (event) => {
	if (event.details?.type !== "suite") passed += 1;
});
stream.on("test:fail", (event) => {
	if (event.details?.type !== "suite") failed += 1;
});
const reporter = stream.compose(new spec());
reporter.pipe(process.stdout, { end: false });
await new Promise((resolve) => reporter.once("end", resolve));
if (passed === 0 && failed === 0) failed = 1; // running nothing is a failure too
process.stdout.write(`\ne2e: ${passed} passed, ${failed} failed\n`);
process.exitCode = failed > 0 ? 1 : 0;
