// Batch entry points: many documents per call, packed as bytes + u32 offsets[n + 1]; results
// are written to buffers the caller allocated and sized from the documented bounds; every
// function returns a count, negative for an error:
//   −1 output capacity too small, −2 scratch too small, −3 bad parameters.
import { rabinUpdate, pushWord } from './rabin';
import { canonicalRun } from './canonicalize';
import { emitBegin, emitConfigure, flushTokens, tokens, SINK_COUNT, SINK_ROLL, SINK_SKETCH } from './emit';
import { shingleBegin, shingleCount, shingleShort, lexicalFingerprint } from './shingles';
import { lastDistinct, lastModLog2, selectBegin, selectFinish, selectValue, signatureFinish } from './select';
import { cfgChar, cfgK, cfgSeed, cfgW, setConfig } from './config';
import { mix } from './mix';

/**
 * Sets the parameters for the following calls: w (1..64), unit (0 word, 1 char), markup
 * (0 text, 1 html), kind (0 min, 1 mod, 2 adaptive), s (1..4096), m (≥ 1), k (0..4096), seed.
 * Returns −3 and keeps the previous parameters when any is out of range.
 */
export function sk_configure(w: u32, unit: u32, markup: u32, kind: u32, s: u32, m: u64, k: u32, seed: u64): i32 {
  return setConfig(w, unit, markup, kind, s, m, k, seed) ? 0 : -3;
}

/** Where document i starts in a batch's bytes (offsets[i]; offsets[n] is the end). */
@inline export function docStart(offsets: usize, i: i32): u32 { return load<u32>(offsets + (<usize>i << 2)); }

// One document's sketch is beginDoc, its tokens delivered to the sketch sink, endDoc: the whole
// page's tokenizer here (sk_sketch_batch), its content blocks' tokens in tp_sketch_batch
// (template.ts), so both write the same outputs by the same code.

/** Starts one document in every stage. */
export function beginDoc(scratch: usize, scratchCap: u32): void {
  emitBegin(0, 0);
  shingleBegin();
  selectBegin(scratch, scratchCap);
}

/**
 * Ends document i of a batch (its bytes at ptr, len): its selected values after the `written`
 * already at values, its end offset, its info record and its signature (see sk_sketch_batch).
 * Returns its value count, or an error code.
 */
export function endDoc(i: i32, ptr: usize, len: usize, values: usize, valuesCap: u32, written: u32,
                       outOffsets: usize, info: usize, signatures: usize): i32 {
  flushTokens();
  // fewer than w units: one shingle of all of them (possibly none)
  if (shingleCount() < cfgW) selectValue(mix(shingleShort(), cfgSeed));
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
  emitConfigure(SINK_SKETCH, cfgChar);
  let written: u32 = 0;
  store<u32>(outOffsets, 0);
  for (let i = 0; i < n; i++) {
    const a = docStart(offsets, i), b = docStart(offsets, i + 1);
    const ptr = bytes + a, len = b - a;
    beginDoc(scratch, scratchCap);
    canonicalRun(ptr, len);
    const count = endDoc(i, ptr, len, values, valuesCap, written, outOffsets, info, signatures);
    if (count < 0) return count;
    written += <u32>count;
  }
  return n;
}

/**
 * Per-stage cost, for the benchmark: runs n documents through the pipeline up to `stage`
 * (0 canonical tokens and their fingerprints, 1 + shingle rolling, 2 + π and MIN_s/MOD_m
 * selection) and drops the results; returns the tokens seen. Needs a MIN_s configuration.
 */
export function sk_stage(bytes: usize, offsets: usize, n: i32, stage: u32): i32 {
  emitConfigure(stage == 0 ? SINK_COUNT : stage == 1 ? SINK_ROLL : SINK_SKETCH, cfgChar);
  let total: u32 = 0;
  for (let i = 0; i < n; i++) {
    const a = docStart(offsets, i), b = docStart(offsets, i + 1);
    beginDoc(0, 0);
    canonicalRun(bytes + a, b - a);
    flushTokens();
    total += tokens;
  }
  return <i32>total;
}
