// Batch entry points: many documents per call, packed as bytes + u32 offsets[n + 1]; results
// are written to buffers the caller allocated and sized from the documented bounds; every
// function returns a count, negative for an error:
//   −1 output capacity too small, −2 scratch too small, −3 bad parameters.
import { rabinUpdate, pushWord } from './rabin';
import { canonicalConfigure, canonicalRun } from './canonicalize';
import { emitBegin, emitConfigure, emitCount, emitOverflow, tokens, SINK_SHINGLES, SINK_SKETCH, SINK_TEXT, SINK_TOKENS } from './emit';
import { MAX_W, shingleBegin, shingleConfigure, shingleCount, shingleShort, lexicalFingerprint } from './shingles';
import { KIND_ADAPTIVE, MAX_K, MAX_S, lastDistinct, lastModLog2, selectBegin, selectConfigure, selectFinish, selectValue, signatureFinish } from './select';
import { mix } from './mix';

let cfgW: u32 = 8;
let cfgK: u32 = 0;
let cfgSeed: u64 = 0;
let cfgChar = false;

/**
 * Sets the parameters for the following calls: w (1..64), unit (0 word, 1 char), markup
 * (0 text, 1 html), kind (0 min, 1 mod, 2 adaptive), s (1..4096), m (≥ 1), k (0..4096), seed.
 */
export function sk_configure(w: u32, unit: u32, markup: u32, kind: u32, s: u32, m: u64, k: u32, seed: u64): i32 {
  if (w < 1 || w > MAX_W || unit > 1 || markup > 1 || kind > KIND_ADAPTIVE || s < 1 || s > MAX_S || m < 1 || k > MAX_K) return -3;
  cfgW = w; cfgK = k; cfgSeed = seed; cfgChar = unit == 1;
  shingleConfigure(w);
  canonicalConfigure(markup == 1);
  selectConfigure(kind, s, m, k, seed);
  return 0;
}

/** The configured seed and unit (for assembly/template.ts). */
export function sketchSeed(): u64 { return cfgSeed; }
export function sketchCharUnit(): bool { return cfgChar; }

@inline export function docStart(offsets: usize, i: i32): u32 { return load<u32>(offsets + (<usize>i << 2)); }

/** One shingle of all tokens when there were fewer than w (possibly none). */
function finishShort(): bool {
  return shingleCount() < cfgW;
}

/**
 * Sketches n documents. Writes, per document i: its sketch at values[outOffsets[i]..
 * outOffsets[i+1]) (sorted, distinct), and info[6i..6i+6) = raw-bytes fingerprint, lexical
 * fingerprint (canonical token stream), shingle fingerprint (the selected values), token count,
 * distinct count (mod/adaptive: all distinct shingles; min: sketch size), adaptive log2 m;
 * with k > 0, k signature values at signatures[k·i..). scratch holds one document's shingle
 * values in mod/adaptive modes: at most max(1, tokens − w + 1) ≤ bytes + 1 of them.
 */
export function sk_sketch_batch(bytes: usize, offsets: usize, n: i32, values: usize, valuesCap: u32,
                                outOffsets: usize, info: usize, signatures: usize, scratch: usize, scratchCap: u32): i32 {
  emitConfigure(SINK_SKETCH, cfgChar, cfgSeed);
  let written: u32 = 0;
  store<u32>(outOffsets, 0);
  for (let i = 0; i < n; i++) {
    const a = docStart(offsets, i), b = docStart(offsets, i + 1);
    const ptr = bytes + a, len = b - a;
    sketchDocBegin(scratch, scratchCap);
    canonicalRun(ptr, len);
    const count = sketchDocEnd(i, ptr, len, values, valuesCap, written, outOffsets, info, signatures);
    if (count < 0) return count;
    written += <u32>count;
  }
  return n;
}

// ---- one document's sketch, in two halves around the tokenizer (a hook for assembly/template.ts) ----

/** Starts one document's sketch: the tokens delivered next (sink SKETCH) are its shingles' tokens. */
export function sketchDocBegin(scratch: usize, scratchCap: u32): void {
  emitBegin(0, 0);
  shingleBegin();
  selectBegin(scratch, scratchCap);
}

/**
 * Ends document i's sketch: writes its values after the `written` already at values, its end
 * offset, its info record and signature (see sk_sketch_batch); returns its value count or an
 * error code.
 */
export function sketchDocEnd(i: i32, ptr: usize, len: usize, values: usize, valuesCap: u32, written: u32,
                             outOffsets: usize, info: usize, signatures: usize): i32 {
  if (finishShort()) selectValue(mix(shingleShort(), cfgSeed));
  const count = selectFinish(values + (<usize>written << 3), valuesCap - written);
  if (count < 0) return count;
  // the shingle-equivalence fingerprint: Rabin over the selected values
  let sh: u64 = 1;
  for (let j: u32 = 0; j < <u32>count; j++) sh = pushWord(sh, load<u64>(values + (<usize>(written + j) << 3)));
  store<u32>(outOffsets + (<usize>(i + 1) << 2), written + <u32>count);
  const rec = info + (<usize>i * 48);
  store<u64>(rec, rabinUpdate(1, ptr, len));
  store<u64>(rec + 8, lexicalFingerprint());
  store<u64>(rec + 16, sh);
  store<u64>(rec + 24, tokens);
  store<u64>(rec + 32, lastDistinct);
  store<u64>(rec + 40, lastModLog2);
  if (cfgK > 0) signatureFinish(signatures + (<usize>i * cfgK << 3));
  return count;
}

/** Canonical text of one document (tokens joined by single spaces) at out; returns its length. */
export function tk_canonical(ptr: usize, len: u32, out: usize, outCap: u32): i32 {
  emitConfigure(SINK_TEXT, false, cfgSeed);
  emitBegin(out, outCap);
  canonicalRun(ptr, len);
  return emitOverflow() ? -1 : <i32>emitCount();
}

/** Token fingerprints of one document, in order (at most len of them); returns the count. */
export function tk_tokens(ptr: usize, len: u32, out: usize, outCap: u32): i32 {
  emitConfigure(SINK_TOKENS, cfgChar, cfgSeed);
  emitBegin(out, outCap);
  canonicalRun(ptr, len);
  return emitOverflow() ? -1 : <i32>emitCount();
}

/** Every permuted shingle value of one document in order, repeats kept (at most len + 1). */
export function sh_values(ptr: usize, len: u32, out: usize, outCap: u32): i32 {
  emitConfigure(SINK_SHINGLES, cfgChar, cfgSeed);
  emitBegin(out, outCap);
  shingleBegin();
  canonicalRun(ptr, len);
  let n = emitCount();
  if (emitOverflow()) return -1;
  if (finishShort()) {
    if (n >= outCap) return -1;
    store<u64>(out + (<usize>n << 3), mix(shingleShort(), cfgSeed));
    n++;
  }
  return <i32>n;
}
