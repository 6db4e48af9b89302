// HTML character references: numeric (&#233; &#xE9;) and the named ones of src/sketch/entities.ts
// (assembly/entity-table.ts is generated from it). A name not in the table leaves the '&' as a
// separator and the name as text.

import { ENTITY_CPS, ENTITY_NAMES } from './entity-table';

/** The table as built: entries of (length, name, code point as 3 bytes LE); tk_entity_table copies it out. */
export const TABLE: usize = memory.data(2048, 16);
export let tableLen: u32 = 0;

function addEntry(src: string, from: i32, to: i32, cp: u32): void {
  store<u8>(TABLE + tableLen, <u8>(to - from)); tableLen++;
  for (let i = from; i < to; i++) { store<u8>(TABLE + tableLen, <u8>src.charCodeAt(i)); tableLen++; }
  store<u8>(TABLE + tableLen, <u8>(cp & 0xff));
  store<u8>(TABLE + tableLen + 1, <u8>((cp >> 8) & 0xff));
  store<u8>(TABLE + tableLen + 2, <u8>(cp >> 16));
  tableLen += 3;
}

// Built without allocating (the runtime is a stub and the arena starts at __heap_base).
function buildTable(): void {
  const m = ENTITY_NAMES.length;
  let start = 0, k = 0;
  for (let j = 0; j <= m; j++) {
    if (j == m || ENTITY_NAMES.charCodeAt(j) == 0x20) { addEntry(ENTITY_NAMES, start, j, ENTITY_CPS[k]); k++; start = j + 1; }
  }
}
buildTable();

/** Code point of the named reference name[0..len) (case-sensitive), or −1. */
export function namedEntity(ptr: usize, len: u32): i32 {
  let p: u32 = 0;
  while (p < tableLen) {
    const n = <u32>load<u8>(TABLE + p);
    if (n == len && memory.compare(TABLE + p + 1, ptr, len) == 0) {
      const q = TABLE + p + 1 + n;
      return <i32>(<u32>load<u8>(q) | (<u32>load<u8>(q + 1) << 8) | (<u32>load<u8>(q + 2) << 16));
    }
    p += 1 + n + 3;
  }
  return -1;
}
