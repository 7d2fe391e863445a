/**
 * A tiny Markdown → DOM renderer standing in for Obsidian's (paragraphs, headings, lists, quotes, code, emphasis,
 * links, images, backslash escapes, character references, and raw `<img>` tags, which Obsidian renders too, so a
 * remote image that reached the renderer would load here as it would there). Builds nodes, never HTML strings.
 */

const INLINE =
	/\\([!-/:-@[-`{-~])|`([^`]+)`|\*\*([^*]+)\*\*|!?\[\[([^\]|]+)(?:\|([^\]]+))?\]\]|!\[([^\]]*)\]\(([^)\s]+)\)|\[([^\]]+)\]\(([^)\s]+)\)|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_|&(lt|gt|amp|quot|#\d{1,6});|<img\b[^>]*?\bsrc=["']?([^"'\s>]+)[^>]*>/;

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

export function renderInline(doc: Document, parent: Node, text: string): void {
	let rest = text;
	while (rest.length > 0) {
		const m = INLINE.exec(rest);
		if (!m) {
			parent.appendChild(doc.createTextNode(rest));
			return;
		}
		if (m.index > 0) parent.appendChild(doc.createTextNode(rest.slice(0, m.index)));
		const [, escaped, code, strong, wikilink, alias, alt, src, label, href, em1, em2, entity, imgSrc] = m;
		if (escaped !== undefined) {
			parent.appendChild(doc.createTextNode(escaped));
		} else if (entity !== undefined) {
			const value = entity.startsWith("#") ? String.fromCodePoint(Number(entity.slice(1))) : (ENTITIES[entity] ?? "");
			parent.appendChild(doc.createTextNode(value));
		} else if (src !== undefined || imgSrc !== undefined) {
			const img = doc.createElement("img");
			img.setAttribute("src", src ?? imgSrc ?? "");
			img.setAttribute("alt", alt ?? "");
			parent.appendChild(img);
		} else if (wikilink !== undefined && m[0].startsWith("!")) {
			const embed = doc.createElement("span");
			embed.className = "internal-embed";
			embed.setAttribute("src", wikilink);
			parent.appendChild(embed);
		} else if (code !== undefined) {
			const el = doc.createElement("code");
			el.textContent = code;
			parent.appendChild(el);
		} else if (strong !== undefined) {
			const el = doc.createElement("strong");
			renderInline(doc, el, strong);
			parent.appendChild(el);
		} else if (wikilink !== undefined) {
			const a = doc.createElement("a");
			a.className = "internal-link";
			a.setAttribute("data-href", wikilink);
			a.textContent = alias ?? wikilink;
			parent.appendChild(a);
		} else if (label !== undefined && href !== undefined) {
			const a = doc.createElement("a");
			a.className = /^[a-z][a-z0-9+.-]*:|^\/\//i.test(href) ? "external-link" : "internal-link";
			a.setAttribute("href", href);
			renderInline(doc, a, label);
			parent.appendChild(a);
		} else {
			const em = doc.createElement("em");
			renderInline(doc, em, em1 ?? em2 ?? "");
			parent.appendChild(em);
		}
		rest = rest.slice(m.index + m[0].length);
	}
}

export function renderMarkdown(doc: Document, markdown: string, el: HTMLElement): void {
	const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
	let i = 0;
	let paragraph: string[] = [];
	const flush = () => {
		if (paragraph.length === 0) return;
		const p = doc.createElement("p");
		paragraph.forEach((line, idx) => {
			if (idx > 0) p.appendChild(doc.createElement("br"));
			renderInline(doc, p, line);
		});
		el.appendChild(p);
		paragraph = [];
	};
	while (i < lines.length) {
		const line = lines[i] ?? "";
		const fence = /^(```|~~~)\s*([\w-]*)/.exec(line);
		if (fence) {
			flush();
			const body: string[] = [];
			i += 1;
			while (i < lines.length && !(lines[i] ?? "").startsWith(fence[1] ?? "```")) body.push(lines[i++] ?? "");
			i += 1;
			const pre = doc.createElement("pre");
			const code = doc.createElement("code");
			if (fence[2]) code.className = `language-${fence[2]}`;
			code.textContent = body.join("\n");
			pre.appendChild(code);
			el.appendChild(pre);
			continue;
		}
		const heading = /^(#{1,6})\s+(.*)$/.exec(line);
		if (heading) {
			flush();
			const h = doc.createElement(`h${heading[1]?.length ?? 1}`);
			renderInline(doc, h, heading[2] ?? "");
			el.appendChild(h);
			i += 1;
			continue;
		}
		const bullet = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
		if (bullet) {
			flush();
			const ordered = /\d/.test(bullet[1] ?? "");
			const list = doc.createElement(ordered ? "ol" : "ul");
			while (i < lines.length) {
				const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(lines[i] ?? "");
				if (!item) break;
				const li = doc.createElement("li");
				renderInline(doc, li, item[2] ?? "");
				list.appendChild(li);
				i += 1;
			}
			el.appendChild(list);
			continue;
		}
		if (line.startsWith(">")) {
			flush();
			const quote = doc.createElement("blockquote");
			const body: string[] = [];
			while (i < lines.length && (lines[i] ?? "").startsWith(">")) body.push((lines[i++] ?? "").replace(/^>\s?/, ""));
			renderMarkdown(doc, body.join("\n"), quote);
			el.appendChild(quote);
			continue;
		}
		if (line.trim() === "") flush();
		else paragraph.push(line);
		i += 1;
	}
	flush();
}
