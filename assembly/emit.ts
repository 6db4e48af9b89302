// Where canonical tokens go. The tokenizer (canonicalize.ts) appends the bytes of the current
// token with tokByte and ends it with endToken; what a finished token becomes depends on the
// sink chosen by the batch call: canonical text, token fingerprints, all shingle values, or
// a sketch. Char mode turns every code point of the canonical text (spaces included) into a
// token, so char shingles are shingles of the same canonical text.
import { step } from './rabin';
import { mix } from './mix';
import { shinglePush, shingleValue } from './shingles';
import { selectValue } from './select';

export const SINK_TEXT: u32 = 0;
export const SINK_TOKENS: u32 = 1;
export const SINK_SHINGLES: u32 = 2;
export const SINK_SKETCH: u32 = 3;

export let sink: u32 = SINK_SKETCH;
export let charMode = false;
export let seed: u64 = 0;

let tokH: u64 = 1;
let inTok = false;
let started = false;       // any token yet (char mode: a space goes only between tokens)
let pendingSpace = false;
let out: usize = 0;
let outCap: u32 = 0;
let outN: u32 = 0;
let full = false;
export let tokens: u32 = 0;

const SPACE_FP: u64 = 0x120;   // Rabin(" ") = x^8 + 0x20: below the modulus, so no reduction

export function emitConfigure(sink_: u32, charMode_: bool, seed_: u64): void { sink = sink_; charMode = charMode_; seed = seed_; }

export function emitBegin(out_: usize, cap: u32): void {
  tokH = 1; inTok = false; started = false; pendingSpace = false;
  out = out_; outCap = cap; outN = 0; full = false; tokens = 0;
}

export function emitCount(): u32 { return outN; }
export function emitOverflow(): bool { return full; }

@inline function textByte(c: u32): void {
  if (outN < outCap) { store<u8>(out + outN, <u8>c); outN++; } else full = true;
}

function deliver(t: u64): void {
  tokens++;
  if (sink == SINK_TOKENS) {
    if (outN < outCap) { store<u64>(out + (<usize>outN << 3), t); outN++; } else full = true;
    return;
  }
  if (sink == SINK_TEXT) return;
  if (shinglePush(t)) {
    const v = mix(shingleValue(), seed);
    if (sink == SINK_SKETCH) selectValue(v);
    else if (outN < outCap) { store<u64>(out + (<usize>outN << 3), v); outN++; } else full = true;
  }
}

/** Appends one byte of the current (case-folded, UTF-8) code point to the current token. */
@inline export function tokByte(c: u32): void {
  if (!inTok) {
    if (sink == SINK_TEXT && started && pendingSpace) textByte(0x20);
    if (charMode && pendingSpace && started) deliver(SPACE_FP);
    inTok = true; started = true; pendingSpace = false;
  }
  tokH = step(tokH, c);
  if (sink == SINK_TEXT) textByte(c);
}

/** Ends the current code point: in char mode every code point is a token. */
@inline export function endChar(): void {
  if (charMode && inTok) { deliver(tokH); tokH = 1; inTok = false; }
}

/** A separator: ends the current token. */
@inline export function endToken(): void {
  if (inTok) { deliver(tokH); tokH = 1; inTok = false; }
  pendingSpace = true;
}
