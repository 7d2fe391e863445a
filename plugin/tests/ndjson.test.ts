import { describe, expect, it } from "vitest";
import { NdjsonError, readNdjson } from "../src/sidecar/ndjson";
import { byteStream, bytes, chop, collect, fixtureText } from "./helpers";

const read = (chunks: Uint8Array[]) => collect(readNdjson(byteStream(chunks)));

describe("readNdjson", () => {
	it.each([
		["one chunk", [1000]],
		["byte by byte", [1]],
		["odd sizes", [3, 7, 2]],
		["two bytes", [2]],
	])("reads the golden ask stream split %s", async (_name, sizes) => {
		const text = fixtureText("ask.ndjson");
		const expected = text
			.split("\n")
			.filter((l) => l.trim() !== "")
			.map((l) => JSON.parse(l) as unknown);
		expect(await read(chop(bytes(text), sizes))).toEqual(expected);
	});

	it.each([
		["a final line without a newline", '{"a":1}\n{"b":2}', [{ a: 1 }, { b: 2 }]],
		["blank and whitespace lines", '\n{"a":1}\n\n   \n{"b":2}\n\n', [{ a: 1 }, { b: 2 }]],
		["CRLF line endings", '{"a":1}\r\n{"b":2}\r\n', [{ a: 1 }, { b: 2 }]],
		["an empty stream", "", []],
		["non-object JSON values", '1\n"x"\nnull\n', [1, "x", null]],
	])("handles %s", async (_name, text, expected) => {
		expect(await read(chop(bytes(text), [1]))).toEqual(expected);
		expect(await read([bytes(text)])).toEqual(expected);
	});

	it.each([
		["2-byte é", "é"],
		["3-byte €", "€"],
		["4-byte emoji", "🦙"],
		["mixed", "ü—🦙日本"],
	])("keeps a %s intact when chunks split it", async (_name, chars) => {
		const text = `${JSON.stringify({ type: "token", text: chars.repeat(3) })}\n`;
		const data = bytes(text);
		for (let cut = 1; cut < data.length; cut++) {
			const got = await read([data.slice(0, cut), data.slice(cut)]);
			expect(got).toEqual([{ type: "token", text: chars.repeat(3) }]);
		}
	});

	it("throws a typed error naming the line for invalid JSON", async () => {
		const stream = readNdjson(byteStream([bytes('{"ok":1}\n{"broken":\n{"never":1}\n')]));
		const seen: unknown[] = [];
		let error: unknown = null;
		try {
			for await (const v of stream) seen.push(v);
		} catch (e) {
			error = e;
		}
		expect(seen).toEqual([{ ok: 1 }]);
		expect(error).toBeInstanceOf(NdjsonError);
		expect((error as NdjsonError).lineNumber).toBe(2);
		expect((error as NdjsonError).line).toBe('{"broken":');
	});

	it("throws for an invalid final line without a newline", async () => {
		await expect(read([bytes('{"a":1}\n{"b":')])).rejects.toBeInstanceOf(NdjsonError);
	});

	it("passes on a failure of the underlying stream", async () => {
		const boom = new TypeError("network error");
		await expect(collect(readNdjson(byteStream([bytes('{"a":1}\n')], { failWith: boom })))).rejects.toBe(boom);
	});

	it("cancels the body when the consumer stops early", async () => {
		let cancelled = false;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				controller.enqueue(bytes('{"n":1}\n'));
			},
			cancel() {
				cancelled = true;
			},
		});
		for await (const v of readNdjson(body)) {
			expect(v).toEqual({ n: 1 });
			break;
		}
		expect(cancelled).toBe(true);
	});
});
