/**
 * The slow, obvious twins of assembly/json.ts: a JSON string literal decoded by JSON.parse and
 * encoded by TextEncoder, and the binary sniff's control-byte count as a plain loop.
 */
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * Takes bytes and the offset p just after a string's opening quote; returns [offset of its closing
 * quote, its value as UTF-8], or undefined when JSON.parse refuses the literal (or it has no end).
 */
export function jsonStringRef(b: Uint8Array, p: number): [number, Uint8Array] | undefined {
  let q = p;
  while (q < b.length && b[q] !== 0x22) q += b[q] === 0x5c ? 2 : 1;
  if (q >= b.length) return undefined;
  let value: unknown;
  try { value = JSON.parse(decoder.decode(b.subarray(p - 1, q + 1))); } catch { return undefined; }
  return [q, encoder.encode(value as string)];
}

/** -1 when bytes holds a NUL, else how many C0 control bytes other than \t \n \f \r and ESC it holds. */
export function controlBytesRef(bytes: Uint8Array): number {
  let n = 0;
  for (const c of bytes) {
    if (c === 0) return -1;
    if (c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27) n++;
  }
  return n;
}
