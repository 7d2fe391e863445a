/** Link targets in an answer: what a browser would make of one (external or a vault path), its host, and a safe way to write it back. */

import { decodeHTMLStrict } from "entities/decode";

const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|[A-Za-z][A-Za-z0-9]{1,31});/g;
const BACKSLASH_ESCAPE = /\\([!-/:-@[-`{-~])/g;
/** A scheme as the URL parser reads one (any length: `c:` is not a vault path either). */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
/** Characters a destination written back may not hold: any of them could end it or be read differently. */
const UNSAFE_IN_DESTINATION = /[\s\x85<>()[\]`"'\\]/;
const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "gif", "bmp", "svg", "webp", "avif", "ico", "tif", "tiff"]);

/**
 * A link destination as the renderer will use it: Markdown escapes and character references decoded, then
 * what the URL parser ignores (tabs and newlines anywhere, spaces and control characters at either end) removed.
 * `null` when a character reference is not in the HTML5 entity table (the caller treats that as external).
 */
export function decodeDestination(raw: string): string | null {
	let unknown = false;
	let text = raw.trim();
	if (text.startsWith("<") && text.endsWith(">")) text = text.slice(1, -1);
	text = text.replace(BACKSLASH_ESCAPE, "$1").replace(ENTITY, (whole, hex: string | undefined, dec: string | undefined) => {
		if (hex !== undefined || dec !== undefined) {
			const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec ?? "0", 10);
			// CommonMark reads NUL, surrogates and out-of-range references as U+FFFD.
			return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
		}
		// Strict: only `&name;` with its semicolon, as CommonMark reads references; an unknown name is left as it is.
		const value = decodeHTMLStrict(whole);
		if (value === whole) unknown = true;
		return value;
	});
	if (unknown) return null;
	return trimControls(text.replace(/[\t\n\r]/g, ""));
}

/** The URL parser trims C0 control characters and spaces from both ends. */
function trimControls(text: string): string {
	let start = 0;
	let end = text.length;
	while (start < end && text.charCodeAt(start) <= 0x20) start += 1;
	while (end > start && text.charCodeAt(end - 1) <= 0x20) end -= 1;
	return text.slice(start, end);
}

/** True for anything that is not a path inside the vault: a scheme (`https:`, `obsidian:`, `data:`) or `//host`. */
export function isExternal(raw: string): boolean {
	const target = decodeDestination(raw);
	if (target === null) return true;
	// Browsers read `\` as `/` in special URLs, so `\\host` is `//host`.
	return SCHEME.test(target) || target.replace(/\\/g, "/").startsWith("//");
}

/** Where a target points, for a notice: its host, else its scheme, else null. Never a path or a query. */
export function hostOf(raw: string): string | null {
	const target = decodeDestination(raw);
	if (target === null) return null;
	const absolute = target.replace(/\\/g, "/").startsWith("//") ? `https:${target}` : target;
	let host = "";
	try {
		host = new URL(absolute).hostname;
	} catch {
		host = "";
	}
	host = cleanTarget(host);
	if (host !== "") return host;
	const scheme = SCHEME.exec(target)?.[1];
	return scheme ? scheme.toLowerCase() : null;
}

/** A target reduced to characters a host, tag or language uses, so a notice can never show a path or a query. */
export function cleanTarget(target: string): string {
	return target.replace(/[^A-Za-z0-9.:_-]/g, "").slice(0, 100);
}

/** True when a vault path names an image (Obsidian embeds any other file, notes included, in place). */
export function isImagePath(path: string): boolean {
	const bare = path.split(/[?#|]/, 1)[0] ?? "";
	const dot = bare.lastIndexOf(".");
	return dot !== -1 && IMAGE_EXTENSIONS.has(bare.slice(dot + 1).toLowerCase());
}

/** A decoded vault path written back as a destination no renderer can read differently (no spaces, brackets, quotes). */
export function encodeDestination(path: string): string {
	let encoded = "";
	for (const c of path) {
		const code = c.charCodeAt(0);
		// U+001C–U+001F too: the sidecar's whitespace (Python's `\s`) holds them.
		if (!UNSAFE_IN_DESTINATION.test(c) && !(code >= 0x1c && code <= 0x1f)) encoded += c;
		else encoded += code < 0x80 ? `%${code.toString(16).toUpperCase().padStart(2, "0")}` : encodeURIComponent(c);
	}
	// Where a renderer does not read the link, its destination is text, and linkify must find no URL in it.
	return encoded.replace(/:/g, "%3A").replace(/\/\//g, "/%2F").replace(/www\./gi, "%77ww.");
}

/** A URL shown as inline code: backticks and line breaks removed so the span cannot end early or run on. */
export function asCode(url: string): string {
	// `$`, `%%` and `]]` could pair with math, a comment or a wikilink around the span and end it early for
	// Obsidian; percent-encoded they mean the same URL and the span stays code on every reading.
	const clean = url
		.replace(/[`\r\n]/g, "")
		.replace(/\$/g, "%24")
		.replace(/%%/g, "%25%25")
		.replace(/\]\]/g, "%5D%5D");
	return clean === "" ? "" : `\`${clean}\``;
}
