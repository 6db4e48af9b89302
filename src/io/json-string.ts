// The JSONL reader's byte loop: a JSON string literal unescaped to UTF-8, on the kernels
// (assembly/json.ts) once `init()` has run and the string is long, in TypeScript before; the other
// byte loop of the readers, and what the two share, is in ./byte-kernels.ts.
import { isInitialized, withArena } from '../wasm/instance.js';
import { KERNEL_FROM } from './byte-kernels.js';

/**
 * Reads the JSON string whose opening quote is at p - 1 in TypeScript. With `out`, writes its value
 * as UTF-8 there (lone surrogates as U+FFFD, as TextEncoder writes them). Returns [index of the
 * closing quote, bytes written], or undefined when the string is not valid JSON (a control
 * character, a bad escape, no closing quote). Bytes ≥ 0x80 are copied as they are.
 */
export function readStringTs(b: Uint8Array, p: number, out?: Uint8Array): [number, number] | undefined {
  let o = 0;
  const n = b.length;
  while (p < n) {
    const c = b[p];
    if (c === 0x22) return [p, o];
    if (c < 0x20) return undefined;
    if (c !== 0x5c) { if (out) out[o] = c; o++; p++; continue; }
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
        if (cp >= 0xd800 && cp <= 0xdbff && b[p] === 0x5c && b[p + 1] === 0x75) {
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
 * Takes a line's bytes and the offset just after a string's opening quote (a string expected to be
 * long: its line's rest is copied to the kernel); returns [offset of the closing quote, the value
 * as UTF-8, in a buffer from `pageBytes`], or undefined when the string is not valid JSON. On the
 * kernel when it is initialized and the rest of the line is long (`kernel` false forces TypeScript).
 */
export function jsonString(b: Uint8Array, p: number, kernel = true, pageBytes: (n: number) => Uint8Array = newBytes): [number, Uint8Array] | undefined {
  const len = b.length - p;
  if (kernel && len >= KERNEL_FROM && isInitialized()) {
    return withArena((mem, k) => {
      const src = mem.alloc(len), out = mem.alloc(len + 16), endAt = mem.alloc(4);
      mem.u8.set(b.subarray(p), src);
      const n = k.js_string(src, len, out, endAt);
      if (n < 0) return undefined;
      const value = pageBytes(n);
      value.set(mem.u8.subarray(out, out + n));
      return [p + mem.u32[endAt >>> 2], value];
    });
  }
  const out = new Uint8Array(len);
  const s = readStringTs(b, p, out);
  if (!s) return undefined;
  const value = pageBytes(s[1]);
  value.set(out.subarray(0, s[1]));
  return [s[0], value];
}

const newBytes = (n: number) => new Uint8Array(n);
