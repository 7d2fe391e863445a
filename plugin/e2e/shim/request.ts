/** requestUrl: a buffered request over window.fetch, like Obsidian's. */

export interface RequestUrlParam {
	url: string;
	method?: string;
	contentType?: string;
	body?: string;
	headers?: Record<string, string>;
	throw?: boolean;
}

/** Buffers the whole body, like Obsidian's (which is why the plugin streams with fetch instead). */
export async function requestUrl(req: RequestUrlParam | string): Promise<{ status: number; text: string; json: unknown; headers: Record<string, string> }> {
	const r = typeof req === "string" ? { url: req } : req;
	const headers: Record<string, string> = { ...(r.headers ?? {}) };
	if (r.contentType) headers["Content-Type"] = r.contentType;
	const res = await window.fetch(r.url, { method: r.method ?? "GET", headers, body: r.body });
	const text = await res.text();
	let json: unknown = null;
	try {
		json = JSON.parse(text);
	} catch {
		json = null;
	}
	if (r.throw !== false && res.status >= 400) throw new Error(`Request failed, status ${res.status}`);
	return { status: res.status, text, json, headers: Object.fromEntries(res.headers.entries()) };
}
