// Canonical tokens of one document (docs/FORMATS.md, "Tokens"), for inspection and tests: the
// canonical text, and one fingerprint per token. Twin: src/reference/tokens.ts.
import { canonicalRun } from './canonicalize';
import { emitBegin, emitConfigure, emitCount, emitOverflow, SINK_TEXT, SINK_TOKENS } from './emit';
import { cfgChar } from './config';
import { TABLE, tableLen } from './entities';

/** Canonical text of one document (tokens joined by single spaces) at out; returns its length. */
export function tk_canonical(ptr: usize, len: u32, out: usize, outCap: u32): i32 {
  emitConfigure(SINK_TEXT, false);
  emitBegin(out, outCap);
  canonicalRun(ptr, len);
  return emitOverflow() ? -1 : <i32>emitCount();
}

/** Token fingerprints of one document, in order (at most len of them); returns the count. */
export function tk_tokens(ptr: usize, len: u32, out: usize, outCap: u32): i32 {
  emitConfigure(SINK_TOKENS, cfgChar);
  emitBegin(out, outCap);
  canonicalRun(ptr, len);
  return emitOverflow() ? -1 : <i32>emitCount();
}

/** Writes the entity table (len, name, cp as 3 bytes) at out; returns its length (for the reference). */
export function tk_entity_table(out: usize, cap: u32): i32 {
  if (tableLen > cap) return -1;
  memory.copy(out, TABLE, tableLen);
  return <i32>tableLen;
}
