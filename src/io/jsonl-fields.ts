// The fields of one JSONL record read straight from its bytes, without decoding the line, parsing
// it whole and encoding the page back: the page's string (`html` or `text`) is unescaped directly
// into UTF-8 bytes, the small fields (URL, id, date, IP) go through JSON.parse. Only lines this can
// read exactly as JSON.parse + TextEncoder would are taken; anything else (invalid UTF-8, a key
// with escapes, a key given twice, a nested value, a value JSON.parse would refuse) returns
// undefined and the caller parses the line the slow way, so the documents and the errors are the
// same either way (test/io/jsonl-fields.test.ts checks it on random records).
import { isUtf8 } from 'node:buffer';

const QUOTE = 0x22, BACKSLASH = 0x5c;
const decoder = new TextDecoder();

/** A record's top-level fields: small ones as JSON values, the page's string as UTF-8 bytes. */
export interface RawFields {
  /** Every top-level field but the page's: its JSON value. */
  values: Map<string, unknown>;
  /** The page's field, when present: its name and its string's UTF-8 bytes. */
  page?: { key: string; bytes: Uint8Array };
}

const isWs = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

function hex4(b: Uint8Array, p: number): number {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const c = b[p + k];
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
    if (d < 0) return -1;
    v = (v << 4) | d;
  }
  return v;
}

/**
 * Reads the JSON string whose opening quote is at p - 1. With `out`, writes its value as UTF-8 there
 * (lone surrogates as U+FFFD, as TextEncoder writes them). Returns [index of the closing quote,
 * bytes written], or undefined when the string is not valid JSON (a control character, a bad escape,
 * no closing quote).
 */
export function readString(b: Uint8Array, p: number, out?: Uint8Array): [number, number] | undefined {
  let o = 0;
  const n = b.length;
  while (p < n) {
    const c = b[p];
    if (c === QUOTE) return [p, o];
    if (c < 0x20) return undefined;
    if (c !== BACKSLASH) { if (out) out[o] = c; o++; p++; continue; }
    const e = b[p + 1];
    let cp = -1;
    switch (e) {
      case 0x22: cp = 0x22; break;
      case 0x5c: cp = 0x5c; break;
      case 0x2f: cp = 0x2f; break;
      case 0x62: cp = 0x08; break;
      case 0x66: cp = 0x0c; break;
      case 0x6e: cp = 0x0a; break;
      case 0x72: cp = 0x0d; break;
      case 0x74: cp = 0x09; break;
      case 0x75: {
        cp = hex4(b, p + 2);
        if (cp < 0) return undefined;
        p += 6;
        if (cp >= 0xd800 && cp <= 0xdbff && b[p] === BACKSLASH && b[p + 1] === 0x75) {
          const lo = hex4(b, p + 2);
          if (lo >= 0xdc00 && lo <= 0xdfff) { cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00); p += 6; }
        }
        if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
        if (out) {
          if (cp < 0x80) out[o] = cp;
          else if (cp < 0x800) { out[o] = 0xc0 | (cp >> 6); out[o + 1] = 0x80 | (cp & 0x3f); }
          else if (cp < 0x10000) { out[o] = 0xe0 | (cp >> 12); out[o + 1] = 0x80 | ((cp >> 6) & 0x3f); out[o + 2] = 0x80 | (cp & 0x3f); }
          else { out[o] = 0xf0 | (cp >> 18); out[o + 1] = 0x80 | ((cp >> 12) & 0x3f); out[o + 2] = 0x80 | ((cp >> 6) & 0x3f); out[o + 3] = 0x80 | (cp & 0x3f); }
        }
        o += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        continue;
      }
      default: return undefined;
    }
    if (out) out[o] = cp;
    o++; p += 2;
  }
  return undefined;
}

/**
 * Takes one line's bytes (no line break), the names of the page's fields (html first, then text:
 * the one taken is the first present whose value is a string) and of the small fields whose values
 * are wanted; returns the record's fields, or undefined when the line must be parsed the slow way
 * (see the file comment). Other string fields are checked, and their values read only when short.
 */
export function readFields(b: Uint8Array, pageKeys: readonly string[], wanted: readonly string[]): RawFields | undefined {
  if (!isUtf8(b)) return undefined;
  const n = b.length;
  let p = 0;
  while (p < n && isWs(b[p])) p++;
  if (b[p] !== 0x7b) return undefined;
  p++;
  const values = new Map<string, unknown>();
  const pages = new Map<string, Uint8Array>();
  const skip = () => { while (p < n && isWs(b[p])) p++; };
  skip();
  if (b[p] === 0x7d) p++;
  else {
    for (;;) {
      skip();
      if (b[p] !== QUOTE) return undefined;
      const k = readString(b, p + 1);
      if (!k) return undefined;
      const rawKey = b.subarray(p + 1, k[0]);
      if (rawKey.includes(BACKSLASH)) return undefined;
      const key = decoder.decode(rawKey);
      if (values.has(key) || pages.has(key)) return undefined;
      p = k[0] + 1;
      skip();
      if (b[p] !== 0x3a) return undefined;
      p++;
      skip();
      const c = b[p];
      if (c === QUOTE && pageKeys.includes(key)) {
        const out = new Uint8Array(n - p);
        const s = readString(b, p + 1, out);
        if (!s) return undefined;
        pages.set(key, out.subarray(0, s[1]));
        p = s[0] + 1;
      } else if (c === QUOTE) {
        const s = readString(b, p + 1);
        if (!s) return undefined;
        // a small field is decoded by JSON.parse itself; a large one only checked (its value is not used)
        values.set(key, s[0] - p < 4096 || wanted.includes(key) ? JSON.parse(decoder.decode(b.subarray(p, s[0] + 1))) : '');
        p = s[0] + 1;
      } else if (c === 0x7b || c === 0x5b) {
        return undefined;
      } else {
        const start = p;
        while (p < n && b[p] !== 0x2c && b[p] !== 0x7d && !isWs(b[p])) p++;
        let v: unknown;
        try { v = JSON.parse(decoder.decode(b.subarray(start, p))); } catch { return undefined; }
        if (v !== null && typeof v === 'object') return undefined;
        values.set(key, v);
      }
      skip();
      if (b[p] === 0x2c) { p++; continue; }
      if (b[p] === 0x7d) { p++; break; }
      return undefined;
    }
  }
  skip();
  if (p !== n) return undefined;
  const out: RawFields = { values };
  for (const key of pageKeys) {
    const bytes = pages.get(key);
    if (bytes) { out.page = { key, bytes }; break; }
  }
  return out;
}
