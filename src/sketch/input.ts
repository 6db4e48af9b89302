import type { WasmMemory } from '../wasm/memory.js';

/** A document as the sketching functions take it: text, or bytes (UTF-8 expected, anything tolerated). */
export type DocInput = string | Uint8Array;

const encoder = new TextEncoder();

/** Upper bound of a document's UTF-8 length (3 bytes per UTF-16 unit for strings). */
export function byteBound(doc: DocInput): number {
  return typeof doc === 'string' ? doc.length * 3 : doc.length;
}

/** Writes a document's bytes at ptr (room for byteBound bytes); returns how many were written. */
export function writeDoc(mem: WasmMemory, doc: DocInput, ptr: number): number {
  if (typeof doc === 'string') return encoder.encodeInto(doc, mem.u8.subarray(ptr, ptr + doc.length * 3)).written;
  mem.u8.set(doc, ptr);
  return doc.length;
}

/** Copies one document into the arena; returns [ptr, len]. */
export function putDoc(mem: WasmMemory, doc: DocInput): [number, number] {
  const ptr = mem.alloc(byteBound(doc));
  return [ptr, writeDoc(mem, doc, ptr)];
}

/** A usable document, or a message saying why it is not. */
export function checkDoc(doc: unknown): string | undefined {
  if (typeof doc === 'string' || doc instanceof Uint8Array) return undefined;
  return `expected a string or Uint8Array, got ${doc === null ? 'null' : typeof doc}`;
}
