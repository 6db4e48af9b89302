// w-shingles of a token stream. Token t_i = Rabin(UTF-8 bytes of the canonical token); the
// shingle of t_i..t_{i+w−1} is Rabin(BE64(t_i) ‖ … ‖ BE64(t_{i+w−1})), kept rolling: pushing a
// token costs 6 look-ups (h·x^64 + t) and dropping the oldest 6 more (t·x^(64w) from tables
// keyed by w), so the cost per token does not grow with w. A document with fewer than w
// tokens has one shingle of all its tokens (never an empty sketch).
import { XPOW64, WORD_TABLES_BYTES, fillWordTables, mulWord, pushWord } from './rabin';
import { cfgChar, cfgSeed, cfgW, MAX_W } from './config';
import { canonicalRun } from './canonicalize';
import { emitBegin, emitConfigure, emitCount, emitOverflow, SINK_SHINGLES } from './emit';
import { mix } from './mix';
import { selectOffer } from './select';

const RING: usize = memory.data(<i32>MAX_W * 8, 16);
/** Word tables for x^(64w): remove the word leaving a (w+1)-word window. */
const OUTW: usize = memory.data(WORD_TABLES_BYTES, 16);
let tablesFor: u32 = 0;

// per document, from the configured w
let w: u32 = 8;
let lead: u64 = 1;    // x^(64w) mod P: the implicit leading 1 of a full window
let h: u64 = 0;
let count: u32 = 0;   // tokens pushed in this document
let slot: u32 = 0;    // ring position of the oldest token once the window is full
let lex: u64 = 1;     // Rabin over all token words: the lexical fingerprint

/** Starts a document with the configured w (the removal table is rebuilt only when w changed). */
export function shingleBegin(): void {
  w = cfgW;
  lead = load<u64>(XPOW64 + (<usize>w << 3));
  if (tablesFor != w) { fillWordTables(OUTW, lead); tablesFor = w; }
  h = 0; count = 0; slot = 0; lex = 1;
}

/**
 * Pushes one token; returns true when a full window (a shingle) is ready in `shingleValue()`.
 * The lexical fingerprint takes whole windows: each time the ring wraps, h is the polynomial of
 * exactly the last w tokens, and Rabin(A‖B) = Rabin(A)·x^(64w) + B — one multiplication per w
 * tokens instead of one per token (the tokens after the last wrap join in lexicalFingerprint()).
 */
@inline export function shinglePush(t: u64): bool {
  h = pushWord(h, t);
  const at = RING + (<usize>slot << 3);
  if (count >= w) h ^= mulWord(OUTW, load<u64>(at));
  store<u64>(at, t);
  count++;
  if (slot + 1 == w) { slot = 0; lex = mulWord(OUTW, lex) ^ h; } else slot++;
  return count >= w;
}

@inline export function shingleValue(): u64 { return h ^ lead; }

/**
 * Pushes n tokens from buf (u64 each), as n shinglePush calls would; with `offer`, each full
 * window's permuted value goes to the selection. One tight loop with the state in locals: the
 * window's look-up chain overlaps the next tokens' removals and the selection's tests.
 */
export function shingleBatch(buf: usize, n: u32, offer: bool): void {
  let hh = h, c = count, sl = slot, lx = lex;
  const ww = w, ld = lead, seed = cfgSeed;
  for (let i: u32 = 0; i < n; i++) {
    const t = load<u64>(buf + (<usize>i << 3));
    hh = pushWord(hh, t);
    const at = RING + (<usize>sl << 3);
    if (c >= ww) hh ^= mulWord(OUTW, load<u64>(at));
    store<u64>(at, t);
    c++;
    if (sl + 1 == ww) { sl = 0; lx = mulWord(OUTW, lx) ^ hh; } else sl++;
    if (offer && c >= ww) selectOffer(mix(hh ^ ld, seed));
  }
  h = hh; count = c; slot = sl; lex = lx;
}

/** At the end of a document with fewer than w tokens: the one shingle of all its tokens. */
export function shingleShort(): u64 { return h ^ load<u64>(XPOW64 + (<usize>count << 3)); }

export function shingleCount(): u32 { return count; }
/** Rabin over all token words of the document: the whole windows already taken, then the tokens after them. */
export function lexicalFingerprint(): u64 {
  let f = lex;
  for (let i: u32 = 0; i < slot; i++) f = pushWord(f, load<u64>(RING + (<usize>i << 3)));
  return f;
}

/** Every permuted shingle value of one document in order, repeats kept (at most len + 1). */
export function sh_values(ptr: usize, len: u32, out: usize, outCap: u32): i32 {
  emitConfigure(SINK_SHINGLES, cfgChar);
  emitBegin(out, outCap);
  shingleBegin();
  canonicalRun(ptr, len);
  let n = emitCount();
  if (emitOverflow()) return -1;
  if (count < w) {
    if (n >= outCap) return -1;
    store<u64>(out + (<usize>n << 3), mix(shingleShort(), cfgSeed));
    n++;
  }
  return <i32>n;
}
