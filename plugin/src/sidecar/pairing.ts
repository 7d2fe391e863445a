/** Pairing with a remote sidecar as plain data: the pairing link and its parts checked, the device name, the pair request and answer. */

import { type Infer, obj, parse, type Schema, SchemaError, str } from "./schema";

/** `obsidian://askvault-pair?address=…&fingerprint=…&code=…`: the link `askvault pair` prints (and its QR code holds). */
export const PAIR_ACTION = "askvault-pair";

/** A pairing input that cannot be used; its message is one sentence the modal shows as written. */
export class PairingError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "PairingError";
	}
}

/** The three parts of a pairing link as written (nothing checked yet): what the connect modal's fields hold. */
export interface PairingFields {
	address: string;
	fingerprint: string;
	code: string;
}

/** A checked pairing link: `HOST:PORT` (`[v6]:PORT`), the certificate's SHA-256 as `AB:CD:…`, the code as `ABCD-EFGH`. */
export type PairingLink = PairingFields;

const EXAMPLE_ADDRESS = "192.168.1.5:8765 or [fd7a::1]:8765";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
/** The symbols `askvault pair` draws codes from: no 0, 1, I or O, which read alike. */
const CODE_SYMBOLS = /^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}$/;
const DEVICE_MAX = 64;

/** The control characters the sidecar refuses in a device name: C0, DEL and C1. */
function isControl(ch: string): boolean {
	const c = ch.codePointAt(0) ?? 0;
	return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

/** `HOST:PORT` checked and written the way a URL writes it (host in lower case, IPv6 compressed, in brackets). */
export function parseAddress(text: string): string {
	let value = text.trim();
	if (value === "") throw new PairingError(`The address is missing: it is HOST:PORT, such as ${EXAMPLE_ADDRESS}.`);
	if (/^http:\/\//i.test(value)) {
		throw new PairingError("A remote sidecar speaks only HTTPS: give its address as HOST:PORT, without http://.");
	}
	value = value.replace(/^https:\/\//i, "").replace(/\/+$/, "");
	const bracketed = /^\[([^\]]*)\](?::(\d*))?$/.exec(value);
	const plain = bracketed ? null : /^([^:[\]]*)(?::(\d*))?$/.exec(value);
	if (!bracketed && !plain) {
		const hint = value.split(":").length > 2 ? ": an IPv6 address goes in brackets, such as [fd7a::1]:8765" : ` (such as ${EXAMPLE_ADDRESS})`;
		throw new PairingError(`"${value}" is not an address of the form HOST:PORT${hint}.`);
	}
	const port = (bracketed ?? plain)?.[2];
	if (port === undefined || port === "") throw new PairingError(`The address "${value}" has no port: write it as HOST:PORT, such as ${EXAMPLE_ADDRESS}.`);
	const number = Number(port);
	if (!Number.isInteger(number) || number < 1 || number > 65535) {
		throw new PairingError(`The port in "${value}" is not a port number (1 to 65535).`);
	}
	const host = bracketed ? ipv6Host(bracketed[1] ?? "", value) : namedHost(plain?.[1] ?? "", value);
	return `${host}:${number}`;
}

function ipv6Host(inner: string, value: string): string {
	if (!inner.includes(":")) throw new PairingError(`"${inner}" in "${value}" is not an IPv6 address: only IPv6 addresses go in brackets.`);
	try {
		// The URL parser checks IPv6 exactly as the WebView and Node will read it, and writes it compressed.
		return new URL(`https://[${inner}]/`).hostname;
	} catch {
		throw new PairingError(`"[${inner}]" in "${value}" is not an IPv6 address.`);
	}
}

function namedHost(host: string, value: string): string {
	if (host === "") throw new PairingError(`The address "${value}" has no host: write it as HOST:PORT, such as ${EXAMPLE_ADDRESS}.`);
	const v4 = IPV4.exec(host);
	if (v4) {
		if (v4.slice(1).some((part) => Number(part) > 255)) throw new PairingError(`"${host}" is not an IPv4 address (each part is 0 to 255).`);
		return v4.slice(1).map(Number).join(".");
	}
	// A name whose last part is a number would be read as an IP address by the URL parser, differently.
	if (host.length > 253 || !HOST_NAME.test(host) || /^\d+$/.test(host.slice(host.lastIndexOf(".") + 1))) {
		throw new PairingError(`"${host}" is not a host name or IP address.`);
	}
	return host.toLowerCase();
}

/** The certificate's SHA-256 as 32 upper-case hex pairs joined by `:` (also read without colons, or as openssl prints it). */
export function normaliseFingerprint(text: string): string {
	const value = text
		.trim()
		.replace(/^sha-?256\s+fingerprint\s*=\s*/i, "")
		.replace(/\s+/g, "");
	const hex = /^[0-9a-f]{64}$/i.test(value) ? value : /^[0-9a-f]{2}(?::[0-9a-f]{2}){31}$/i.test(value) ? value.replace(/:/g, "") : null;
	if (hex === null) {
		throw new PairingError(
			value === ""
				? "The fingerprint is missing: it is the 32 pairs of hex digits (AB:CD:…) that `askvault pair` prints."
				: "The fingerprint is not a SHA-256 fingerprint: it is 32 pairs of hex digits joined by colons (AB:CD:…), as `askvault pair` prints it.",
		);
	}
	return (hex.toUpperCase().match(/../g) ?? []).join(":");
}

/** The one-time code as `ABCD-EFGH`: case, spaces and dashes do not matter (the sidecar ignores them too). */
export function normaliseCode(text: string): string {
	const value = text.replace(/[\s-]+/g, "").toUpperCase();
	if (value === "") throw new PairingError("The pairing code is missing: it is the ABCD-EFGH code that `askvault pair` prints.");
	if (!CODE_SYMBOLS.test(value)) {
		throw new PairingError(
			"The pairing code is 8 letters and digits such as ABCD-EFGH (never 0, 1, I or O), as `askvault pair` prints it.",
		);
	}
	return `${value.slice(0, 4)}-${value.slice(4)}`;
}

/** A device name as the sidecar stores it: 1 to 64 characters, no control characters, trimmed. */
export function normaliseDeviceName(text: string): string {
	const name = text.trim();
	const length = [...name].length;
	if (length === 0) throw new PairingError("Give this device a name, so that `askvault devices` can list it and `askvault revoke` can remove it.");
	if (length > DEVICE_MAX) throw new PairingError(`The device name is ${length} characters long; at most ${DEVICE_MAX} fit.`);
	if ([...name].some(isControl)) throw new PairingError("The device name may not hold control characters (such as tabs or line breaks).");
	return name;
}

/** The fields of a pairing link (`obsidian://askvault-pair?…`) as written, or null when the text is not one. */
export function linkFields(text: string): PairingFields | null {
	const value = text.trim();
	if (!/^obsidian:\/\//i.test(value)) return null;
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		return null;
	}
	const action = `${url.host}${url.pathname}`.replace(/\/+$/, "");
	if (action.toLowerCase() !== PAIR_ACTION) return null;
	return fieldsFromParams(Object.fromEntries(url.searchParams));
}

/** The fields of what Obsidian's protocol handler passes for the link (`{action, address, fingerprint, code}`, decoded). */
export function fieldsFromParams(params: Readonly<Record<string, string | undefined>>): PairingFields {
	return { address: params.address ?? "", fingerprint: params.fingerprint ?? "", code: params.code ?? "" };
}

/** Checks each part; the first one that is wrong says so. */
export function checkPairing(fields: PairingFields): PairingLink {
	return {
		address: parseAddress(fields.address),
		fingerprint: normaliseFingerprint(fields.fingerprint),
		code: normaliseCode(fields.code),
	};
}

/** A pasted pairing link, checked. */
export function parsePairingLink(text: string): PairingLink {
	const fields = linkFields(text);
	if (fields === null) {
		throw new PairingError(
			"That is not an Ask Vault pairing link: the link `askvault pair` prints starts with obsidian://askvault-pair?.",
		);
	}
	return checkPairing(fields);
}

/** The protocol handler's parameters, checked. */
export function pairingFromParams(params: Readonly<Record<string, string | undefined>>): PairingLink {
	return checkPairing(fieldsFromParams(params));
}

/** `POST /api/pair`'s body. */
export interface PairRequest {
	code: string;
	device: string;
}

const nonEmpty: Schema<string> = (v, p) => {
	const s = str(v, p);
	if (s.trim() === "") throw new SchemaError(p, "a non-empty string");
	return s;
};

/** `POST /api/pair`'s answer: the device token (shown once), the name the sidecar stored, its certificate's fingerprint. */
export const pairBody = obj({ token: nonEmpty, device: nonEmpty, fingerprint: nonEmpty });
export type PairBody = Infer<typeof pairBody>;

export function parsePairBody(value: unknown): PairBody {
	return parse(pairBody, value);
}

/** `AB:CD:EF:01…`: enough of a fingerprint to tell two apart at a glance. */
export function shortFingerprint(fingerprint: string): string {
	return `${fingerprint.split(":").slice(0, 4).join(":")}…`;
}

/** The sidecar's answer must name the certificate the link named: otherwise the link and the sidecar disagree on who it is. */
export function checkPairedFingerprint(link: PairingLink, answer: PairBody): void {
	let answered: string;
	try {
		answered = normaliseFingerprint(answer.fingerprint);
	} catch {
		answered = answer.fingerprint;
	}
	if (answered === link.fingerprint) return;
	throw new PairingError(
		`The sidecar at ${link.address} says its certificate is SHA-256 ${shortFingerprint(answered)}, not ${shortFingerprint(link.fingerprint)} as the pairing link says, so this device did not keep the pairing; run \`askvault pair\` there again and use the new link.`,
	);
}

/** What a device is, from Obsidian's Platform flags (passed in, so this stays plain data). */
export interface PlatformFlags {
	isIosApp: boolean;
	isAndroidApp: boolean;
	isPhone: boolean;
	isTablet: boolean;
	isMacOS: boolean;
	isWin: boolean;
	isLinux: boolean;
}

/** A name for this device that `askvault devices` can list: what it is, such as "Obsidian on iPhone". */
export function defaultDeviceName(p: PlatformFlags): string {
	return `Obsidian on ${deviceKind(p)}`;
}

function deviceKind(p: PlatformFlags): string {
	if (p.isIosApp) return p.isTablet ? "iPad" : "iPhone";
	if (p.isAndroidApp) return p.isTablet ? "Android tablet" : "Android phone";
	if (p.isMacOS) return "Mac";
	if (p.isWin) return "Windows";
	if (p.isLinux) return "Linux";
	return p.isPhone ? "a phone" : "this device";
}
