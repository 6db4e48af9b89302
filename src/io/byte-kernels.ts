// The readers' two byte loops on the kernels (assembly/json.ts) once `init()` has run: the control
// bytes the binary sniff counts (here), and a JSON string literal unescaped to UTF-8 (the JSONL
// reader's page field: ./json-string.ts). Before `init()` (the readers need no kernels) the same
// answers come from plain TypeScript; test/io/byte-kernels.test.ts checks the kernel builds, the
// TypeScript loops and the slow references (src/reference/json.ts) against each other.
import { isInitialized, withArena } from '../wasm/instance.js';

/** Strings shorter than this are read in TypeScript: a kernel call costs two copies and a call. */
export const KERNEL_FROM = 256;

/**
 * Takes bytes; returns -1 when they hold a NUL byte, else how many C0 control bytes other than tab,
 * line feed, form feed, carriage return and escape they hold (on the kernel when it is initialized
 * and the bytes are many; `kernel` false forces TypeScript).
 */
export function controlBytes(bytes: Uint8Array, kernel = true): number {
  if (kernel && bytes.length >= KERNEL_FROM && isInitialized()) {
    return withArena((mem, k) => k.js_controls(mem.put(bytes), bytes.length));
  }
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c >= 0x20) continue;
    if (c === 0) return -1;
    if (c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27) n++;
  }
  return n;
}
