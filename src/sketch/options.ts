import { enumOption, intOption, optionError, rejectUnknown } from '../errors.js';

/**
 * How documents are turned into sketches. Every option has a default; options that do not
 * apply to the chosen `kind` are rejected rather than ignored.
 */
export interface SketchOptions {
  /** Shingle width in tokens (or characters with unit 'char'), 1..64. Default 8: Broder used 10;
   *  8 keeps short pages comparable and is what Henzinger's large-scale comparison (2006) used.
   *  Cost: none (the shingle fingerprint rolls in constant time per token). */
  w?: number;
  /** 'word' (default) shingles canonical tokens; 'char' shingles characters of the canonical text. */
  unit?: 'word' | 'char';
  /** 'html' (default) drops tags, comments, scripts and styles and decodes entities; 'text' keeps every byte as text. */
  markup?: 'html' | 'text';
  /** 'min' (default): MIN_s, the s smallest shingle values — fixed size, resemblance only (containment
   *  estimated from the overlap below both thresholds). 'mod': MOD_m, values ≡ 0 mod m — size grows
   *  with the document, estimates containment directly. 'adaptive': MOD_{2^i} with i chosen so a sketch keeps 50–100 values. */
  kind?: 'min' | 'mod' | 'adaptive';
  /** MIN_s size, 1..4096 (kind 'min' only). Default 128: standard error of a resemblance estimate ≤ 0.5/√s ≈ 0.044. Cost: 8 bytes a value. */
  s?: number;
  /** MOD_m modulus, 1..2^32 (kind 'mod' only). Default 25, the paper's value (keeps ~4% of shingles). */
  m?: number;
  /** Length of the one-permutation-hashing signature for LSH banding, 0..4096. Default 0 (none). Cost: 8·k bytes a document. */
  k?: number;
  /** Super-shingle size (runs of this many consecutive sorted sketch values), 0..64. Default 0 (none). */
  superShingle?: number;
  /** Seed of the permutation π (fingerprint XOR seed, then a 64-bit mixer). Default 0n. */
  seed?: bigint;
}

/** Options resolved to concrete values; stored with every SketchSet and in its serialized header. */
export interface SketchParams {
  w: number;
  unit: 'word' | 'char';
  markup: 'html' | 'text';
  kind: 'min' | 'mod' | 'adaptive';
  /** MIN_s size (0 unless kind is 'min'). */
  s: number;
  /** MOD_m modulus (0 unless kind is 'mod'). */
  m: number;
  k: number;
  superShingle: number;
  seed: bigint;
}

const KNOWN = ['w', 'unit', 'markup', 'kind', 's', 'm', 'k', 'superShingle', 'seed'] as const;
export const DEFAULT_W = 8;
export const DEFAULT_S = 128;
export const DEFAULT_M = 25;

/** Validates options (coded errors, before any WASM call) and fills in the defaults. */
export function resolveSketchOptions(o: SketchOptions = {}): SketchParams {
  if (o === null || typeof o !== 'object') throw optionError('options', 'an object', o);
  rejectUnknown(o, KNOWN, 'sketch');
  const kind = enumOption('kind', o.kind, 'min', ['min', 'mod', 'adaptive'] as const);
  if (kind !== 'min' && o.s !== undefined) throw optionError('s', `no s with kind '${kind}' (s sizes MIN_s sketches)`, o.s);
  if (kind !== 'mod' && o.m !== undefined) throw optionError('m', `no m with kind '${kind}' (m is the MOD_m modulus)`, o.m);
  const seed = o.seed ?? 0n;
  if (typeof seed !== 'bigint' || seed < 0n || seed >= 1n << 64n) throw optionError('seed', 'bigint 0..2^64−1', seed);
  return {
    w: intOption('w', o.w, DEFAULT_W, 1, 64),
    unit: enumOption('unit', o.unit, 'word', ['word', 'char'] as const),
    markup: enumOption('markup', o.markup, 'html', ['html', 'text'] as const),
    kind,
    s: kind === 'min' ? intOption('s', o.s, DEFAULT_S, 1, 4096) : 0,
    m: kind === 'mod' ? intOption('m', o.m, DEFAULT_M, 1, 2 ** 32) : 0,
    k: intOption('k', o.k, 0, 0, 4096),
    superShingle: intOption('superShingle', o.superShingle, 0, 0, 64),
    seed,
  };
}

/** True when two parameter sets make comparable sketches. */
export function sameParams(a: SketchParams, b: SketchParams): boolean {
  return a.w === b.w && a.unit === b.unit && a.markup === b.markup && a.kind === b.kind && a.s === b.s
    && a.m === b.m && a.k === b.k && a.superShingle === b.superShingle && a.seed === b.seed;
}

/** The parameters that differ, as `w 8 ≠ 10`, for error messages. */
export function paramDiff(a: SketchParams, b: SketchParams): string {
  return (Object.keys(a) as (keyof SketchParams)[]).filter((k) => a[k] !== b[k]).map((k) => `${k} ${String(a[k])} ≠ ${String(b[k])}`).join(', ');
}

/** Configures the kernels for these parameters (cheap: tables are rebuilt only when w changes). */
export function configureKernels(p: SketchParams, configure: (w: number, unit: number, markup: number, kind: number, s: number, m: bigint, k: number, seed: bigint) => number): void {
  const r = configure(p.w, p.unit === 'char' ? 1 : 0, p.markup === 'html' ? 1 : 0, ['min', 'mod', 'adaptive'].indexOf(p.kind), Math.max(1, p.s), BigInt(Math.max(1, p.m)), p.k, p.seed);
  if (r !== 0) throw optionError('sketch options', 'parameters the kernel accepts', JSON.stringify(p, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
}
