/** A tiny runtime validator for incoming JSON: each schema checks a value and returns it typed, or throws. */

export class SchemaError extends Error {
	constructor(
		readonly path: string,
		readonly expected: string,
	) {
		super(`${path || "value"}: expected ${expected}`);
		this.name = "SchemaError";
	}
}

export type Schema<T> = (value: unknown, path: string) => T;
export type Infer<S> = S extends Schema<infer T> ? T : never;

export const str: Schema<string> = (v, p) => {
	if (typeof v !== "string") throw new SchemaError(p, "a string");
	return v;
};

export const num: Schema<number> = (v, p) => {
	if (typeof v !== "number" || !Number.isFinite(v)) throw new SchemaError(p, "a number");
	return v;
};

export const bool: Schema<boolean> = (v, p) => {
	if (typeof v !== "boolean") throw new SchemaError(p, "a boolean");
	return v;
};

export function literal<const L extends readonly (string | number | boolean)[]>(...values: L): Schema<L[number]> {
	return (v, p) => {
		for (const allowed of values) if (v === allowed) return allowed;
		throw new SchemaError(p, `one of ${values.map((x) => JSON.stringify(x)).join(", ")}`);
	};
}

export function nullable<T>(inner: Schema<T>): Schema<T | null> {
	return (v, p) => (v === null || v === undefined ? null : inner(v, p));
}

/** A field the contract marks optional: absent becomes the fallback. */
export function withDefault<T>(inner: Schema<T>, fallback: T): Schema<T> {
	return (v, p) => (v === undefined ? fallback : inner(v, p));
}

export function arr<T>(item: Schema<T>): Schema<T[]> {
	return (v, p) => {
		if (!Array.isArray(v)) throw new SchemaError(p, "an array");
		return v.map((x, i) => item(x, `${p}[${i}]`));
	};
}

export function record<T>(value: Schema<T>): Schema<Record<string, T>> {
	return (v, p) => {
		if (!isPlainObject(v)) throw new SchemaError(p, "an object");
		const out: Record<string, T> = {};
		for (const [k, x] of Object.entries(v)) out[k] = value(x, `${p}.${k}`);
		return out;
	};
}

type Shape = Record<string, Schema<unknown>>;
type FromShape<S extends Shape> = { [K in keyof S]: Infer<S[K]> };

/** An object with at least these fields; unknown fields are dropped so newer sidecars stay readable. */
export function obj<S extends Shape>(shape: S): Schema<FromShape<S>> {
	return (v, p) => {
		if (!isPlainObject(v)) throw new SchemaError(p, "an object");
		const out: Record<string, unknown> = {};
		for (const [k, field] of Object.entries(shape)) out[k] = field(v[k], p ? `${p}.${k}` : k);
		return out as FromShape<S>;
	};
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
	return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Runs a schema at the top level. */
export function parse<T>(schema: Schema<T>, value: unknown): T {
	return schema(value, "");
}

/** The `type` tag of one stream line, read first to pick the schema that checks the rest; shared by both NDJSON streams. */
export function typeOf(value: unknown): string {
	if (typeof value !== "object" || value === null || !("type" in value) || typeof value.type !== "string") {
		throw new SchemaError("type", "an event type");
	}
	return value.type;
}
