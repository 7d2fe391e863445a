/** Reads an NDJSON byte stream (one JSON value per `\n`-terminated line) into parsed values, as they arrive. */

export class NdjsonError extends Error {
	constructor(
		readonly lineNumber: number,
		readonly line: string,
		reason: string,
	) {
		super(`Invalid JSON on line ${lineNumber} of the stream: ${reason}`);
		this.name = "NdjsonError";
	}
}

/** Longest line accepted before the stream is judged broken (a sidecar never sends this much on one line). */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

/**
 * Yields one parsed value per non-blank line. Lines may be split anywhere across chunks, including inside a
 * multi-byte UTF-8 character; a last line without a newline is still read. Stopping the iteration early
 * cancels the body, which closes the connection (the sidecar then cancels the generation).
 */
export async function* readNdjson(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown, void, undefined> {
	const reader = body.getReader();
	const decoder = new TextDecoder("utf-8");
	let buffer = "";
	let lineNumber = 0;
	let finished = false;

	function* drain(final: boolean): Generator<unknown, void, undefined> {
		let newline = buffer.indexOf("\n");
		while (newline !== -1 || (final && buffer.length > 0)) {
			const end = newline === -1 ? buffer.length : newline;
			const raw = buffer.slice(0, end);
			buffer = newline === -1 ? "" : buffer.slice(newline + 1);
			lineNumber += 1;
			const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
			if (line.trim() !== "") yield parseLine(line, lineNumber);
			newline = buffer.indexOf("\n");
		}
		if (buffer.length > MAX_LINE_CHARS) {
			throw new NdjsonError(lineNumber + 1, buffer.slice(0, 80), "line too long");
		}
	}

	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			buffer += decoder.decode(value, { stream: true });
			yield* drain(false);
		}
		buffer += decoder.decode();
		finished = true;
		yield* drain(true);
	} finally {
		if (!finished) {
			// The consumer stopped early or the stream failed: release the connection rather than leak it.
			await reader.cancel().catch(() => undefined);
		}
		reader.releaseLock();
	}
}

function parseLine(line: string, lineNumber: number): unknown {
	try {
		return JSON.parse(line) as unknown;
	} catch (e) {
		const reason = e instanceof Error ? e.message : String(e);
		throw new NdjsonError(lineNumber, line.length > 200 ? `${line.slice(0, 200)}…` : line, reason);
	}
}
