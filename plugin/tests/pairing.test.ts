/** The pairing link and its parts (address, fingerprint, code, device name), the pair answer and its fingerprint check. */
import { describe, expect, it } from "vitest";
import {
	checkPairedFingerprint,
	defaultDeviceName,
	fieldsFromParams,
	linkFields,
	normaliseCode,
	normaliseDeviceName,
	normaliseFingerprint,
	PairingError,
	type PairingLink,
	pairingFromParams,
	parseAddress,
	parsePairBody,
	parsePairingLink,
	type PlatformFlags,
	shortFingerprint,
} from "../src/sidecar/pairing";

const FP = "AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89";
const FP_HEX = FP.replace(/:/g, "");
const LINK = `obsidian://askvault-pair?address=192.168.1.5%3A8765&fingerprint=${encodeURIComponent(FP)}&code=ABCD-EFGH`;

function errorOf(fn: () => unknown): string {
	try {
		fn();
	} catch (e) {
		expect(e).toBeInstanceOf(PairingError);
		return (e as Error).message;
	}
	throw new Error("expected a PairingError");
}

describe("parseAddress", () => {
	it.each([
		["IPv4 and port", "192.168.1.5:8765", "192.168.1.5:8765"],
		["spaces around", "  192.168.1.5:8765 ", "192.168.1.5:8765"],
		["a DNS name, in lower case", "Desk.Tailnet-1234.ts.net:8765", "desk.tailnet-1234.ts.net:8765"],
		["a single-label name", "localhost:443", "localhost:443"],
		["IPv6 in brackets", "[fd7a:115c:a1e0::1]:8765", "[fd7a:115c:a1e0::1]:8765"],
		["IPv6 written long, compressed", "[FD7A:0:0:0:0:0:0:1]:8765", "[fd7a::1]:8765"],
		["an https:// prefix and a trailing slash", "https://192.168.1.5:8765/", "192.168.1.5:8765"],
		["a port with a leading zero", "10.0.0.2:08765", "10.0.0.2:8765"],
	])("reads %s", (_name, text, want) => {
		expect(parseAddress(text)).toBe(want);
	});

	it.each([
		["empty", "", "The address is missing: it is HOST:PORT, such as 192.168.1.5:8765 or [fd7a::1]:8765."],
		["no port", "192.168.1.5", 'The address "192.168.1.5" has no port: write it as HOST:PORT, such as 192.168.1.5:8765 or [fd7a::1]:8765.'],
		["an empty port", "[fd7a::1]:", 'The address "[fd7a::1]:" has no port: write it as HOST:PORT, such as 192.168.1.5:8765 or [fd7a::1]:8765.'],
		["port 0", "host:0", 'The port in "host:0" is not a port number (1 to 65535).'],
		["port too big", "host:65536", 'The port in "host:65536" is not a port number (1 to 65535).'],
		["IPv6 without brackets", "fd7a::1:8765", '"fd7a::1:8765" is not an address of the form HOST:PORT: an IPv6 address goes in brackets, such as [fd7a::1]:8765.'],
		["plain HTTP", "http://192.168.1.5:8765", "A remote sidecar speaks only HTTPS: give its address as HOST:PORT, without http://."],
		["an IPv4 part over 255", "192.168.1.256:8765", '"192.168.1.256" is not an IPv4 address (each part is 0 to 255).'],
		["three numbers", "1.2.3:8765", '"1.2.3" is not a host name or IP address.'],
		["an underscore", "my_host:8765", '"my_host" is not a host name or IP address.'],
		["a path", "host:8765/api", '"host:8765/api" is not an address of the form HOST:PORT (such as 192.168.1.5:8765 or [fd7a::1]:8765).'],
		["brackets around an IPv4", "[10.0.0.1]:8765", '"10.0.0.1" in "[10.0.0.1]:8765" is not an IPv6 address: only IPv6 addresses go in brackets.'],
		["a bad IPv6", "[fd7a::1::2]:8765", '"[fd7a::1::2]" in "[fd7a::1::2]:8765" is not an IPv6 address.'],
		["no host", ":8765", 'The address ":8765" has no host: write it as HOST:PORT, such as 192.168.1.5:8765 or [fd7a::1]:8765.'],
	])("refuses %s in one sentence", (_name, text, message) => {
		expect(errorOf(() => parseAddress(text))).toBe(message);
	});
});

describe("normaliseFingerprint", () => {
	it.each([
		["as printed", FP, FP],
		["in lower case", FP.toLowerCase(), FP],
		["without colons", FP_HEX.toLowerCase(), FP],
		["as openssl prints it", `sha256 Fingerprint=${FP}`, FP],
		["with spaces around", `  ${FP}\n`, FP],
	])("reads one %s", (_name, text, want) => {
		expect(normaliseFingerprint(text)).toBe(want);
	});

	it.each([
		["empty", "", "The fingerprint is missing: it is the 32 pairs of hex digits (AB:CD:…) that `askvault pair` prints."],
		["SHA-1 length", FP.split(":").slice(0, 20).join(":"), "The fingerprint is not a SHA-256 fingerprint: it is 32 pairs of hex digits joined by colons (AB:CD:…), as `askvault pair` prints it."],
		["not hex", FP.replace("AB", "XY"), "The fingerprint is not a SHA-256 fingerprint: it is 32 pairs of hex digits joined by colons (AB:CD:…), as `askvault pair` prints it."],
		["odd separators", FP.replace(/:/g, "-"), "The fingerprint is not a SHA-256 fingerprint: it is 32 pairs of hex digits joined by colons (AB:CD:…), as `askvault pair` prints it."],
	])("refuses %s", (_name, text, message) => {
		expect(errorOf(() => normaliseFingerprint(text))).toBe(message);
	});

	it("shortens to four pairs for display", () => {
		expect(shortFingerprint(FP)).toBe("AB:CD:EF:01…");
	});
});

describe("normaliseCode", () => {
	it.each([
		["as printed", "ABCD-EFGH", "ABCD-EFGH"],
		["in lower case", "abcd-efgh", "ABCD-EFGH"],
		["without the dash", "ABCDEFGH", "ABCD-EFGH"],
		["with spaces", " abcd efgh ", "ABCD-EFGH"],
		["with digits", "23XY-Z789", "23XY-Z789"],
	])("reads one %s", (_name, text, want) => {
		expect(normaliseCode(text)).toBe(want);
	});

	const shape = "The pairing code is 8 letters and digits such as ABCD-EFGH (never 0, 1, I or O), as `askvault pair` prints it.";
	it.each([
		["empty", " - ", "The pairing code is missing: it is the ABCD-EFGH code that `askvault pair` prints."],
		["too short", "ABCD-EFG", shape],
		["too long", "ABCD-EFGHJ", shape],
		["with an O", "ABCD-EFGO", shape],
		["with a 1", "1BCD-EFGH", shape],
		["with punctuation", "ABCD_EFGH", shape],
	])("refuses %s", (_name, text, message) => {
		expect(errorOf(() => normaliseCode(text))).toBe(message);
	});
});

describe("normaliseDeviceName", () => {
	it.each([
		["trimmed", "  Pixel 8 ", "Pixel 8"],
		["64 characters", "x".repeat(64), "x".repeat(64)],
		["64 characters beyond the BMP", "😀".repeat(64), "😀".repeat(64)],
	])("keeps a name %s", (_name, text, want) => {
		expect(normaliseDeviceName(text)).toBe(want);
	});

	it.each([
		["empty", "   ", "Give this device a name, so that `askvault devices` can list it and `askvault revoke` can remove it."],
		["too long", "x".repeat(65), "The device name is 65 characters long; at most 64 fit."],
		["with a tab", "my\tphone", "The device name may not hold control characters (such as tabs or line breaks)."],
		["with a C1 control", "phone\u0085", "The device name may not hold control characters (such as tabs or line breaks)."],
	])("refuses a name %s", (_name, text, message) => {
		expect(errorOf(() => normaliseDeviceName(text))).toBe(message);
	});
});

describe("the pairing link", () => {
	const want: PairingLink = { address: "192.168.1.5:8765", fingerprint: FP, code: "ABCD-EFGH" };

	it.each([
		["as `askvault pair` prints it", LINK],
		["with a slash before the query", LINK.replace("askvault-pair?", "askvault-pair/?")],
		["with an upper-case action", LINK.replace("askvault-pair", "AskVault-Pair")],
		["with an IPv6 address", LINK.replace("192.168.1.5%3A8765", encodeURIComponent("[fd7a::1]:8765"))],
	])("reads a link %s", (_name, link) => {
		const parsed = parsePairingLink(link);
		expect(parsed).toEqual(link.includes("fd7a") ? { ...want, address: "[fd7a::1]:8765" } : want);
	});

	it.each([
		["another action", "obsidian://open?vault=x", "That is not an Ask Vault pairing link: the link `askvault pair` prints starts with obsidian://askvault-pair?."],
		["a web link", "https://example.com/?code=ABCD-EFGH", "That is not an Ask Vault pairing link: the link `askvault pair` prints starts with obsidian://askvault-pair?."],
		["no address", LINK.replace("address=192.168.1.5%3A8765&", ""), "The address is missing: it is HOST:PORT, such as 192.168.1.5:8765 or [fd7a::1]:8765."],
		["a cut fingerprint", LINK.replace(/fingerprint=[^&]+/, "fingerprint=AB%3ACD"), "The fingerprint is not a SHA-256 fingerprint: it is 32 pairs of hex digits joined by colons (AB:CD:…), as `askvault pair` prints it."],
		["no code", LINK.replace("&code=ABCD-EFGH", ""), "The pairing code is missing: it is the ABCD-EFGH code that `askvault pair` prints."],
	])("refuses %s", (_name, link, message) => {
		expect(errorOf(() => parsePairingLink(link))).toBe(message);
	});

	it("gives the fields as written for a modal to fill in, or null for other text", () => {
		expect(linkFields(LINK.replace("ABCD-EFGH", "abcd efgh"))).toEqual({ address: "192.168.1.5:8765", fingerprint: FP, code: "abcd efgh" });
		expect(linkFields("ABCD-EFGH")).toBeNull();
	});

	it("reads what Obsidian's protocol handler passes", () => {
		const params = { action: "askvault-pair", address: "192.168.1.5:8765", fingerprint: FP.toLowerCase(), code: "abcdefgh" };
		expect(pairingFromParams(params)).toEqual(want);
		expect(fieldsFromParams({ action: "askvault-pair" })).toEqual({ address: "", fingerprint: "", code: "" });
	});
});

describe("the pair answer", () => {
	const link: PairingLink = { address: "192.168.1.5:8765", fingerprint: FP, code: "ABCD-EFGH" };

	it("reads the token, the stored name and the fingerprint", () => {
		expect(parsePairBody({ token: "t", device: "Pixel 8 (2)", fingerprint: FP, extra: 1 })).toEqual({ token: "t", device: "Pixel 8 (2)", fingerprint: FP });
		expect(() => parsePairBody({ token: "", device: "x", fingerprint: FP })).toThrow("token: expected a non-empty string");
	});

	it.each([
		["the same", FP],
		["the same in lower case", FP.toLowerCase()],
	])("accepts an answer naming %s certificate", (_name, fingerprint) => {
		expect(() => checkPairedFingerprint(link, { token: "t", device: "d", fingerprint })).not.toThrow();
	});

	it("refuses an answer naming another certificate, in one sentence", () => {
		const other = FP.replace(/^AB/, "00");
		expect(errorOf(() => checkPairedFingerprint(link, { token: "t", device: "d", fingerprint: other }))).toBe(
			"The sidecar at 192.168.1.5:8765 says its certificate is SHA-256 00:CD:EF:01…, not AB:CD:EF:01… as the pairing link says, so this device did not keep the pairing; run `askvault pair` there again and use the new link.",
		);
	});
});

describe("defaultDeviceName", () => {
	const none: PlatformFlags = { isIosApp: false, isAndroidApp: false, isPhone: false, isTablet: false, isMacOS: false, isWin: false, isLinux: false };
	it.each([
		["an iPhone", { isIosApp: true, isPhone: true, isMacOS: true }, "Obsidian on iPhone"],
		["an iPad", { isIosApp: true, isTablet: true, isMacOS: true }, "Obsidian on iPad"],
		["an Android phone", { isAndroidApp: true, isPhone: true, isLinux: true }, "Obsidian on Android phone"],
		["an Android tablet", { isAndroidApp: true, isTablet: true }, "Obsidian on Android tablet"],
		["a Mac", { isMacOS: true }, "Obsidian on Mac"],
		["a Windows PC", { isWin: true }, "Obsidian on Windows"],
		["a Linux PC", { isLinux: true }, "Obsidian on Linux"],
		["anything else", {}, "Obsidian on this device"],
	])("names %s", (_name, flags, want) => {
		expect(defaultDeviceName({ ...none, ...flags })).toBe(want);
		expect(() => normaliseDeviceName(want)).not.toThrow();
	});
});
