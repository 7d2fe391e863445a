import { describe, expect, it } from "vitest";
import { neutralisedNotice, targetLabel } from "../src/answer/notice";
import { describeRedactions } from "../src/answer/status";
import { decodeDestination, encodeDestination, hostOf, isExternal, isImagePath } from "../src/answer/urls";
import { parse } from "../src/sidecar/schema";
import { statusBody } from "../src/sidecar/wire";
import { fixtureJson } from "./helpers";

describe("link targets", () => {
	it.each([
		["https URL", "https://evil.example/p.png", true, "evil.example"],
		["upper-case scheme", "HTTPS://Evil.Example/x", true, "evil.example"],
		["protocol-relative", "//evil.example/p.png", true, "evil.example"],
		// Four backslashes in Markdown are two in the URL, which browsers read as `//`.
		["escaped backslashes read as slashes", "\\\\\\\\evil.example/p.png", true, "evil.example"],
		["one backslash is a path on this host", "\\evil.example/p.png", false, null],
		["mailto", "mailto:a@b.example", true, "mailto"],
		["obsidian URI", "obsidian://open?vault=x", true, "open"],
		["character reference for the colon", "https&#58;//evil.example/", true, "evil.example"],
		["named reference", "https&colon;//evil.example/", true, "evil.example"],
		["reference this table does not know", "https&unknownthing;//x", true, null],
		["backslash-escaped colon", "https\\://evil.example/", true, "evil.example"],
		["tab inside the scheme", "ht\ttps://evil.example/", true, "evil.example"],
		["leading spaces in angle brackets", "<  https://evil.example/>", true, "evil.example"],
		["a drive letter is no vault path either", "c:/pics/x.png", true, "c"],
		["vault path", "Homelab/Kodi.md#Maintenance", false, null],
		["relative image", "attachments/chart.png", false, null],
		["encoded vault path", "My%20Note.md", false, null],
		["empty", "", false, null],
	])("%s", (_name, target, external, host) => {
		expect(isExternal(target)).toBe(external);
		expect(hostOf(target)).toBe(host);
	});

	it.each([
		["<a b.png>", "a b.png"],
		["a\\(b\\).png", "a(b).png"],
		["x&amp;y.png", "x&y.png"],
		["&#x68;ttps://e", "https://e"],
	])("decodes %s", (raw, decoded) => {
		expect(decodeDestination(raw)).toBe(decoded);
	});

	it.each([
		["pic.png", true],
		["a/b.JPEG", true],
		["chart.svg#x", true],
		["Note.md", false],
		["Note", false],
		["report.pdf", false],
	])("%s is an image: %s", (path, image) => {
		expect(isImagePath(path)).toBe(image);
	});

	it("writes a vault path back without characters a renderer could read differently", () => {
		expect(encodeDestination("My Note (draft).md")).toBe("My%20Note%20%28draft%29.md");
		expect(encodeDestination("a<b>`c`\\d.png")).toBe("a%3Cb%3E%60c%60%5Cd.png");
	});
});

describe("the notice under an answer", () => {
	it.each([
		["nothing neutralised", [], false, null],
		["the sidecar changed it without saying what", [], true, "Parts of this answer were made inert."],
		["one image", [{ kind: "image", target: "evil.example" }], false, "Made inert: 1 remote image (evil.example)."],
		[
			"grouped by kind, hosts once each",
			[
				{ kind: "image", target: "evil.example" },
				{ kind: "link", target: "evil.example" },
				{ kind: "image", target: "evil.example" },
				{ kind: "link", target: null },
			],
			true,
			"Made inert: 2 remote images (evil.example), 2 external links (evil.example).",
		],
		[
			"code, embeds and tags",
			[
				{ kind: "code", target: "dataviewjs" },
				{ kind: "embed", target: null },
				{ kind: "html", target: "iframe" },
			],
			true,
			"Made inert: 1 runnable code block (dataviewjs), 1 embed, 1 HTML tag (iframe).",
		],
		[
			"many hosts",
			["a", "b", "c", "d", "e"].map((h) => ({ kind: "link", target: `${h}.example` })),
			true,
			"Made inert: 5 external links (a.example, b.example, c.example +2 more).",
		],
		["a kind this version does not know", [{ kind: "later", target: null }], true, "Made inert: 1 later."],
		[
			"a full URL is cut down to its host",
			[{ kind: "image", target: "https://evil.example/p.png?q=secret" }],
			true,
			"Made inert: 1 remote image (evil.example).",
		],
	])("%s", (_name, items, sanitized, expected) => {
		expect(neutralisedNotice(items, sanitized)).toBe(expected);
	});

	it.each([
		["evil.example", "evil.example"],
		["evil.example/p.png?q=secret", "evil.example"],
		["https://evil.example/x?token=1", "evil.example"],
		["<b>", "b"],
		[null, null],
		["", null],
	])("target %s shows as %s", (target, shown) => {
		expect(targetLabel(target)).toBe(shown);
	});
});

describe("redactions in the status tooltip", () => {
	it.each([
		["not reported (older sidecar)", null, ""],
		["none", { total: 0, by_kind: {}, notes: [] }, "Secrets redacted from the index: none."],
		[
			"the golden status: total and kinds, largest first",
			parse(statusBody, fixtureJson("status.json")).index.redactions,
			"Secrets redacted from the index: 3 (password 2, aws-access-key 1).",
		],
	])("%s", (_name, redactions, expected) => {
		expect(describeRedactions(redactions)).toBe(expected);
	});
});
