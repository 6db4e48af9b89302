// Where canonical tokens go. The tokenizer (canonicalize.ts) appends the bytes of the current
// token with tokByte and ends it with endToken; what a finished token becomes depends on the
// sink chosen by the batch call: canonical text, token fingerprints, all shingle values, or
// a sketch. Char mode turns every code point of the canonical text (spaces included) into a
// token, so char shingles are shingles of the same canonical text.
//
// Token fingerprints are Rabin(token bytes), computed without a table look-up per byte: bytes
// gather in a 64-bit register and go into the Rabin state a word (6 look-ups, independent) at a
// time; a token of r ≤ 7 bytes is x^(8r) + bytes, already reduced (degree < 64).
import { pushWord, step } from './rabin';
import { mix } from './mix';
import { shingleBatch, shinglePush, shingleValue } from './shingles';
import { cfgSeed } from './config';

export const SINK_TEXT: u32 = 0;
export const SINK_TOKENS: u32 = 1;
export const SINK_SHINGLES: u32 = 2;
export const SINK_SKETCH: u32 = 3;
/** Benchmark sinks (per-stage costs): tokens gathered as the sketch gathers them, then dropped; shingles rolled but dropped. */
export const SINK_COUNT: u32 = 4;
export const SINK_ROLL: u32 = 5;

// Set by each entry point for its call: where tokens go, and whether code points are the units.
export let sink: u32 = SINK_SKETCH;
export let charMode = false;
/** The sink gathers tokens in TOKBUF (SINK_SKETCH, SINK_ROLL, SINK_COUNT). */
let buffered = true;

// the current token: Rabin state over its full 8-byte words, the pending bytes, their count
let tokH: u64 = 1;
let tokWords: u32 = 0;
let acc: u64 = 0;
let accN: u32 = 0;
let inTok = false;
let started = false;       // any token yet (a space goes only between tokens)
let pendingSpace = false;
let out: usize = 0;
let outCap: u32 = 0;
let outN: u32 = 0;
let full = false;
export let tokens: u32 = 0;

// The sketch sinks gather token fingerprints here and roll them in batches (flushTokens): the
// shingle window's look-up chain and the selection then run in one tight loop, apart from the
// tokenizer's branches. Whoever reads the shingle state (endDoc, sk_stage) flushes first.
const TOK_CAP: u32 = 512;
const TOKBUF: usize = memory.data(<i32>TOK_CAP * 8, 16);
let tokN: u32 = 0;

const SPACE_FP: u64 = 0x120;   // Rabin(" ") = x^8 + 0x20

/** Chooses this call's sink and units. */
export function emitConfigure(sink_: u32, charMode_: bool): void {
  sink = sink_; charMode = charMode_; buffered = sink_ == SINK_SKETCH || sink_ == SINK_ROLL || sink_ == SINK_COUNT;
}

export function emitBegin(out_: usize, cap: u32): void {
  tokH = 1; tokWords = 0; acc = 0; accN = 0; inTok = false; started = false; pendingSpace = false;
  out = out_; outCap = cap; outN = 0; full = false; tokens = 0; tokN = 0;
}

/**
 * Rolls the tokens gathered by the sketch sinks into the shingle window (and, for SINK_SKETCH, the
 * selection); SINK_COUNT drops them, so its cost is the tokenizer's as the sketch runs it.
 */
export function flushTokens(): void {
  const n = tokN;
  tokN = 0;
  if (n != 0 && sink != SINK_COUNT) shingleBatch(TOKBUF, n, sink == SINK_SKETCH);
}

export function emitCount(): u32 { return outN; }
export function emitOverflow(): bool { return full; }

@inline function textByte(c: u32): void {
  if (outN < outCap) { store<u8>(out + outN, <u8>c); outN++; } else full = true;
}

/** A finished token (fingerprint t) goes to the sink: inline for the sketch sinks (a store), the others in deliverOther. */
@inline export function deliver(t: u64): void {
  tokens++;
  if (buffered) {
    store<u64>(TOKBUF + (<usize>tokN << 3), t);
    if (++tokN == TOK_CAP) flushTokens();
    return;
  }
  deliverOther(t);
}

function deliverOther(t: u64): void {
  if (sink == SINK_TOKENS) {
    if (outN < outCap) { store<u64>(out + (<usize>outN << 3), t); outN++; } else full = true;
    return;
  }
  if (sink == SINK_TEXT) return;
  if (shinglePush(t)) {
    if (outN < outCap) { store<u64>(out + (<usize>outN << 3), mix(shingleValue(), cfgSeed)); outN++; } else full = true;
  }
}

/** Rabin of the current token's bytes: the full words in tokH, then the accN pending bytes. */
@inline function tokenValue(): u64 {
  if (tokWords == 0) return (<u64>1 << (<u64>accN << 3)) | acc;
  let h = tokH;
  for (let i = <i32>accN - 1; i >= 0; i--) h = step(h, <u32>(acc >> (<u64>i << 3)) & 0xff);
  return h;
}

/** Starts a token if none is open (the space before it, in text sink and char mode). */
@inline function open(): void {
  if (!inTok) {
    if (started && pendingSpace) {
      if (sink == SINK_TEXT) textByte(0x20);
      if (charMode) deliver(SPACE_FP);
    }
    inTok = true; started = true; pendingSpace = false;
  }
}

/** Appends one byte of the current (case-folded, UTF-8) code point to the current token. */
@inline export function tokByte(c: u32): void {
  open();
  acc = (acc << 8) | <u64>c;
  accN++;
  if (accN == 8) { tokH = pushWord(tokH, acc); tokWords++; acc = 0; accN = 0; }
  if (sink == SINK_TEXT) textByte(c);
}

/** True when the block path may be used: word units into a fingerprinting sink (the text sink and char units go byte by byte). */
export function fastWords(): bool { return !charMode && sink != SINK_TEXT; }

/**
 * The block path's append (word units into a fingerprinting sink): n ≤ 8 bytes, big-endian in
 * the low 8n bits of w, go into the current token a word at a time — no per-byte work.
 */
@inline export function tokAppend(w: u64, n: u32): void {
  open();
  const total = accN + n;
  if (total < 8) {
    acc = (acc << (<u64>n << 3)) | w;   // n < 8 here, so the shift is below 64
    accN = total;
    return;
  }
  // fill the pending word (acc is 0 when accN is 0, so a 64-bit shift, taken mod 64, is harmless)
  const rest = total - 8;
  tokH = pushWord(tokH, (acc << (<u64>(8 - accN) << 3)) | (w >> (<u64>rest << 3)));
  tokWords++;
  acc = w & ((<u64>1 << (<u64>rest << 3)) - 1);
  accN = rest;
}

// The block path (canonicalize.ts, blockRun) keeps the current token and the token buffer in its
// own locals between slow-path calls, where module globals would be a memory load and store each
// time; it takes them from here at its start and after each call that may change them, and puts
// them back before such a call and at its end. Only for word units into a fingerprinting sink,
// where opening a token writes no space.
@inline export function curHash(): u64 { return tokH; }
@inline export function curWords(): u32 { return tokWords; }
@inline export function curAcc(): u64 { return acc; }
@inline export function curAccN(): u32 { return accN; }
@inline export function bufN(): u32 { return tokN; }
/** Whether finished tokens are gathered in the token buffer (SINK_SKETCH, SINK_ROLL, SINK_COUNT) rather than sent on one by one. */
@inline export function bufferedSink(): bool { return buffered; }
/** The token buffer (TOK_CAP values). */
@inline export function tokBuf(): usize { return TOKBUF; }
export const TOKBUF_CAP: u32 = TOK_CAP;
/**
 * Puts the block path's locals back. A token is open exactly when it holds a byte (words or
 * pending bytes): every path that opens one appends at least one. The buffered tokens since the
 * last exchange (n less the tokN it took) join the token count. (started and pendingSpace only
 * place spaces in the text sink and char mode: not read on the block path.)
 */
@inline export function putState(h_: u64, words: u32, acc_: u64, accN_: u32, n: u32): void {
  inTok = (words | accN_) != 0; tokH = h_; tokWords = words; acc = acc_; accN = accN_;
  tokens += n - tokN; tokN = n;
}
/** A finished token for the unbuffered sinks, from the block path. */
export function deliverUnbuffered(t: u64): void { tokens++; deliverOther(t); }
/** The block path's buffer holds n tokens, TOK_CAP of them: counts them and rolls them. */
export function flushBuffer(n: u32): void { tokens += n - tokN; tokN = n; flushTokens(); }

function closeToken(): void {
  deliver(tokenValue());
  tokH = 1; tokWords = 0; acc = 0; accN = 0; inTok = false;
}

/** Ends the current code point: in char mode every code point is a token. */
@inline export function endChar(): void {
  if (charMode && inTok) closeToken();
}

/** A separator: ends the current token. */
@inline export function endToken(): void {
  if (inTok) closeToken();
  pendingSpace = true;
}
