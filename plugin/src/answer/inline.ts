/**
 * Makes one paragraph of answer prose inert, scanning left to right the way a CommonMark renderer does, so it
 * sees the same code spans, links and images: remote images and note embeds removed, external links, autolinks
 * and bare URLs shown as code, every `<` escaped. Whatever the scan leaves as plain text is written so that no
 * renderer can read a link, an image or a code span into it (stray backticks, `![` and `](` are escaped).
 */

import { closingRun, inlineTail, PUNCTUATION, referenceEnd, runEnd } from "./linkSyntax";
import { asCode, cleanTarget, decodeDestination, encodeDestination, hostOf, isExternal, isImagePath } from "./urls";

export type NeutralisedKind = "image" | "embed" | "link" | "definition" | "html" | "code";

/** One thing taken out of an answer: what it was and where it pointed (a host, a tag or a language; never a URL). */
export interface Neutralised {
	kind: NeutralisedKind;
	target: string | null;
}

type Note = (kind: NeutralisedKind, target: string | null) => void;

interface Opener {
	/** Index in the output of the `[` or `![` piece. */
	out: number;
	image: boolean;
	active: boolean;
	/** A link was made inside its brackets (so, as a link itself, it would be read as text). */
	holdsLink: boolean;
}

const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]{0,2000})>/y;
const TAG_NAME = /\/?[A-Za-z][A-Za-z0-9-]{0,30}/y;
const SOURCE_ATTRIBUTE = /\b(?:src|href|srcset|data|poster|action|background|formaction)\s{0,5}=\s{0,5}["']?([^"'\s>]{1,2000})/i;
/**
 * Bare URLs a renderer may link: any `scheme://`, `www.` (GFM), `//host` and `mailto:` (linkify-it), none right after
 * a letter or digit, and `//` not after `:` or `/` either. No lookbehind (iOS before 16.4 cannot parse one, and the
 * bundle loads on phones): what comes before is checked by `bareUrlAt`.
 */
const BARE_URL = /(?:[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/|www\.|mailto:)[^\s<>()[\]`"'\\]{0,2000}/iy;
const BARE_SLASHES = /\/\/(?=[^\s/])[^\s<>()[\]`"'\\]{0,2000}/y;
const ALNUM = /[A-Za-z0-9]/i;
/** Text that starts nothing, taken in one piece: letters too, except where a bare URL (above) starts. */
const PLAIN_CHAR = /[^\n\\`![\]<(/A-Za-z]/i;
const LETTER = /[A-Za-z]/i;
const URL_START = /[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/|www\.|mailto:/iy;
const NUMBER = /^\s*\d+\s*$/;
const TRAILING_PUNCTUATION = /[.,:;!?*_~]+$/;
const DATAVIEW_INLINE = /^\s*\$?=/;
const WIKI_EMBED = /!\[\[[^\]\n`<>$\\[]{1,500}\]\]/y;

/** The bare URL starting at `at`, or null: see BARE_URL. */
function bareUrlAt(text: string, at: number): string | null {
	const before = text[at - 1] ?? "";
	if (ALNUM.test(before)) return null;
	BARE_URL.lastIndex = at;
	const url = BARE_URL.exec(text);
	if (url) return url[0];
	if (before === ":" || before === "/") return null;
	BARE_SLASHES.lastIndex = at;
	return BARE_SLASHES.exec(text)?.[0] ?? null;
}

/**
 * Where the plain text starting at `at` ends: a character that starts nothing, a letter after a letter or digit,
 * or a letter that does not start a bare URL.
 */
function plainEnd(text: string, at: number): number {
	let i = at;
	for (; i < text.length; i++) {
		const c = text[i] ?? "";
		if (PLAIN_CHAR.test(c)) continue;
		if (!LETTER.test(c)) break;
		if (ALNUM.test(text[i - 1] ?? "")) continue;
		URL_START.lastIndex = i;
		if (URL_START.test(text)) break;
	}
	return i;
}

/** Inline code that could not be code for every renderer: a math, comment or wikilink span could open before it and close inside it. */
function straddled(lineBefore: string, inner: string): boolean {
	if (lineBefore.includes("$") && inner.includes("$")) return true;
	if (lineBefore.includes("%%") && inner.includes("%%")) return true;
	return lineBefore.lastIndexOf("[[") > lineBefore.lastIndexOf("]]") && inner.includes("]]");
}

function tagTarget(text: string, at: number, name: string): string | null {
	const rest = text.slice(at, at + 2000).split(">", 1)[0] ?? "";
	const source = name === "" ? null : SOURCE_ATTRIBUTE.exec(rest);
	if (source?.[1]) return hostOf(source[1]);
	const tag = cleanTarget(name.replace(/^\//, "").toLowerCase());
	return tag === "" ? null : tag;
}

/** Adds a space where a code span written next to a backslash or a backtick would otherwise change meaning. */
function spaced(out: string[], code: string, next: string | undefined): string {
	const before = out.length > 0 ? (out[out.length - 1] ?? "") : "";
	const lead = /[\\`]$/.test(before) ? " " : "";
	const trail = next === "`" ? " " : "";
	return `${lead}${code}${trail}`;
}

/** A literal `!` just before a link written in place of an embed is escaped, so the two make no embed. */
function unbang(out: string[]): void {
	if (out[out.length - 1] === "!") out[out.length - 1] = "\\!";
}

/** The inert form of `text` (one paragraph, or one table cell); everything made inert is reported to `note`. */
export function neutraliseInline(text: string, note: Note): string {
	const out: string[] = [];
	const openers: Opener[] = [];
	let lineStart = 0;
	let i = 0;
	while (i < text.length) {
		const plain = plainEnd(text, i);
		if (plain > i) {
			out.push(text.slice(i, plain));
			i = plain;
			continue;
		}
		const c = text[i] ?? "";
		if (c === "\n") {
			out.push(c);
			lineStart = i + 1;
			i += 1;
		} else if (c === "\\") {
			const next = text[i + 1] ?? "";
			const escaped = PUNCTUATION.test(next);
			out.push(escaped ? c + next : c);
			i += escaped ? 2 : 1;
		} else if (c === "`") {
			const end = runEnd(text, i);
			const length = end - i;
			const close = closingRun(text, end, length);
			if (close !== -1 && !straddled(text.slice(lineStart, i), text.slice(end, close))) {
				let body = text.slice(end, close);
				if (DATAVIEW_INLINE.test(body)) {
					note("code", "dataview");
					body = `(query) ${body}`;
				}
				out.push(text.slice(i, end), body, text.slice(close, close + length));
				i = close + length;
			} else {
				out.push("\\`".repeat(length));
				i = end;
			}
		} else if (c === "!" && text[i + 1] === "[") {
			WIKI_EMBED.lastIndex = i;
			if (WIKI_EMBED.test(text)) {
				// The `[[link]]` left is scanned like any other text, so the scan reads it again the same way.
				note("embed", null);
				unbang(out);
				i += 1;
			} else {
				openers.push({ out: out.length, image: true, active: true, holdsLink: false });
				out.push("![");
				i += 2;
			}
		} else if (c === "[") {
			openers.push({ out: out.length, image: false, active: true, holdsLink: false });
			out.push(c);
			i += 1;
		} else if (c === "]") {
			i = closeBracket(text, i, out, openers, note);
		} else if (c === "<") {
			AUTOLINK.lastIndex = i;
			const autolink = AUTOLINK.exec(text);
			if (autolink) {
				const url = autolink[1] ?? "";
				note("link", hostOf(url));
				out.push(spaced(out, asCode(url), text[AUTOLINK.lastIndex]));
				i = AUTOLINK.lastIndex;
			} else {
				if (/[A-Za-z/!?]/.test(text[i + 1] ?? "")) {
					TAG_NAME.lastIndex = i + 1;
					const name = TAG_NAME.exec(text)?.[0] ?? "";
					note("html", tagTarget(text, i + 1 + name.length, name));
				}
				out.push("&lt;");
				i += 1;
			}
		} else if (c === "(" && (text[i - 1] === "]" || (out[out.length - 1] ?? "").endsWith("]"))) {
			// A `](` the scan did not take as a link: escaped, so no renderer can read one into it.
			out.push("\\(");
			i += 1;
		} else {
			const bare = /[A-Za-z/]/.test(c) ? bareUrlAt(text, i) : null;
			if (bare !== null) {
				const url = bare.replace(TRAILING_PUNCTUATION, "");
				note("link", hostOf(/^www\./i.test(url) ? `//${url}` : url));
				out.push(spaced(out, asCode(url), text[i + url.length]));
				i += url.length;
			} else {
				out.push(c);
				i += 1;
			}
		}
	}
	// An image that never closed must not become one when more text arrives or a renderer reads it differently.
	for (const opener of openers) if (opener.image) out[opener.out] = "!\\[";
	return out.join("");
}

/** Handles the `]` at `at`: a link or image when an inline or reference tail follows, else a literal bracket. Returns where to go on. */
function closeBracket(text: string, at: number, out: string[], openers: Opener[], note: Note): number {
	const opener = openers.pop();
	if (!opener?.active) {
		out.push("]");
		return at + 1;
	}
	const label = out.slice(opener.out + 1).join("");
	const tail = inlineTail(text, at + 1);
	if (tail) {
		out.length = opener.out;
		const decoded = decodeDestination(tail.destination);
		let link = !opener.image;
		if (opener.image) {
			const image = imageReplacement(label, tail.destination, decoded, note, out, opener);
			out.push(image.text);
			link = image.link;
		} else if (decoded === null || isExternal(tail.destination)) {
			note("link", hostOf(tail.destination));
			const shown = NUMBER.test(label) ? `[${label}]` : label;
			const code = asCode(tail.destination.replace(/^<|>$/g, ""));
			out.push(shown.trim() === "" ? spaced(out, code, text[tail.end]) : `${shown} (${code})`);
		} else {
			out.push(`[${label}](${encodeDestination(decoded)})`);
		}
		// Links do not nest: brackets opened before this link can no longer make one.
		if (link) {
			for (const earlier of openers) {
				earlier.holdsLink = true;
				if (!earlier.image) earlier.active = false;
			}
		}
		return tail.end;
	}
	const reference = referenceEnd(text, at + 1);
	if (opener.image && reference !== -1) {
		out.length = opener.out;
		note("image", null);
		out.push(removed(null));
		return reference;
	}
	// A shortcut reference image `![label]` stays text; a plain `[label]` (a citation, a task, a callout) stays as written.
	if (opener.image) out[opener.out] = "\\![";
	out.push("]");
	return at + 1;
}

/** What an image becomes: removed when remote, a link when it would embed a note, else kept; and whether it is a link. */
function imageReplacement(label: string, destination: string, decoded: string | null, note: Note, out: string[], opener: Opener): { text: string; link: boolean } {
	if (decoded === null || isExternal(destination)) {
		const host = hostOf(destination);
		note("image", host);
		return { text: removed(host), link: false };
	}
	if (!isImagePath(decoded)) {
		// `![x](Note.md)` embeds the note (an excluded one too) like `![[Note]]`: a link instead, unless its text
		// holds a link already (links do not nest: it would be read as text), then plain text.
		note("embed", null);
		unbang(out);
		const tail = opener.holdsLink ? "\\(" : "(";
		return { text: `[${label}]${tail}${encodeDestination(decoded)})`, link: !opener.holdsLink };
	}
	return { text: `![${label}](${encodeDestination(decoded)})`, link: false };
}

/** The `[image removed: host]` marker, escaped so no neighbour can make a link, a reference or a definition of it. */
function removed(host: string | null): string {
	// A `www.` host would be linked by GFM renderers where it stands: shown without it.
	const shown = host !== null && /^www\./i.test(host) ? host.slice(4) : host;
	return shown ? `\\[image removed: ${shown}\\]` : "\\[image removed\\]";
}
