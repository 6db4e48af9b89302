// The fields of one JSONL record read straight from its bytes, without decoding the line, parsing
// it whole and encoding the page back: the page's string (`html` or `text`) is unescaped directly
// into UTF-8 bytes, the small fields (URL, id, date, IP) and nested objects go through JSON.parse.
// Only lines this can read exactly as JSON.parse + TextEncoder would are taken; anything else
// (invalid UTF-8, a key with escapes, a key given twice, a value JSON.parse would refuse) returns
// undefined and the caller parses the line the slow way, so the documents and the errors are the
// same either way (test/io/jsonl-fields.test.ts checks it on random records).
import { isUtf8 } from 'node:buffer';
import { jsonString, readStringTs } from './json-string.js';

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

/**
 * Takes bytes and the offset of an opening `{` or `[`; returns the offset just after its matching
 * bracket (strings skipped as JSON reads them), or undefined when there is none or a string in it
 * is not valid JSON. The brackets are only counted: JSON.parse checks the value.
 */
function nestedEnd(b: Uint8Array, p: number): number | undefined {
  let depth = 0;
  for (const n = b.length; p < n; p++) {
    const c = b[p];
    if (c === QUOTE) {
      const s = readStringTs(b, p + 1);
      if (!s) return undefined;
      p = s[0];
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) { if (--depth === 0) return p + 1; }
  }
  return undefined;
}

/**
 * Takes one line's bytes (no line break), the names of the page's fields (html first, then text:
 * the one taken is the first present whose value is a string) and of the small fields whose values
 * are wanted; returns the record's fields, or undefined when the line must be parsed the slow way
 * (see the file comment). Other string fields are checked, and their values read only when short.
 * The page's string is read on the kernels once they are initialized (`kernel` false: in TypeScript),
 * into a buffer from `pageBytes` (default: a new one).
 */
export function readFields(b: Uint8Array, pageKeys: readonly string[], wanted: readonly string[], kernel = true, pageBytes?: (n: number) => Uint8Array): RawFields | undefined {
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
      const k = readStringTs(b, p + 1);
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
        const s = jsonString(b, p + 1, kernel, pageBytes);
        if (!s) return undefined;
        pages.set(key, s[1]);
        p = s[0] + 1;
      } else if (c === QUOTE) {
        const s = readStringTs(b, p + 1);
        if (!s) return undefined;
        // a small field is decoded by JSON.parse itself; a large one only checked (its value is not used)
        values.set(key, s[0] - p < 4096 || wanted.includes(key) ? JSON.parse(decoder.decode(b.subarray(p, s[0] + 1))) : '');
        p = s[0] + 1;
      } else if (c === 0x7b || c === 0x5b) {
        // a nested object or array (datatrove's `metadata`): found by its matching bracket, then
        // checked and read by JSON.parse itself (a dotted field name reaches into it)
        const end = nestedEnd(b, p);
        if (end === undefined) return undefined;
        let v: unknown;
        try { v = JSON.parse(decoder.decode(b.subarray(p, end))); } catch { return undefined; }
        values.set(key, v);
        p = end;
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
