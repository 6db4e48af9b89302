// Records as the CLI prints them: JSON-ready plain objects, every score rounded to 4 decimals, so
// that `JSON.stringify(record)` is the command's output line.

/** Takes a number; returns it rounded to 4 decimals (the precision every score is printed with). */
export function round4(x: number): number {
  const r = Math.round(x * 1e4) / 1e4;
  return Object.is(r, -0) ? 0 : r;
}

/**
 * Takes any value; returns a JSON-ready copy: non-integers rounded by `round4`, NaN and ±Infinity as
 * null, bigints as decimal strings, typed arrays and Sets as arrays, Maps as objects, undefined fields left out.
 */
export function plain(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? (Number.isInteger(value) ? value : round4(value)) : null;
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number | bigint>, plain);
  if (Array.isArray(value) || value instanceof Set) return Array.from(value, plain);
  if (value instanceof Map) return Object.fromEntries(Array.from(value, ([k, v]) => [String(k), plain(v)]));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = plain(v);
  return out;
}
