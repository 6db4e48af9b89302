import { enumOption, intOption, numberOption, optionError, rejectUnknown } from '../errors.js';

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
  /** What is shingled: 'page' (default here: the whole page, Broder's definition) or 'main' (the page's own
   *  content: blocks of its host's template and link-heavy blocks left out; docs/FORMATS.md "Content mode").
   *  The commands default to 'main'. Cost of 'main': one more pass over each page's tags (≤ 25% of `dups`). */
  content?: 'page' | 'main';
  /** content 'main' only: a block whose link text is more than this share of its tokens is left out, 0..1.
   *  Default 0.5 (1 keeps every block whatever its links). */
  linkDensity?: number;
  /** content 'main' only: a page with fewer content tokens than this (its link-heavy blocks counted when
   *  without them it would have fewer) has "too little content": its row is empty, its lexical fingerprint its
   *  whole text's and its shingle fingerprint its title and content's, so it joins only copies of its whole text
   *  (byte-identical or lexically equivalent) or of its title and content (docs/FORMATS.md). Default 30 (0 keeps every page). */
  minContent?: number;
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
  /** 'main' for content sketches; absent for whole pages ('page'), so parameters of whole-page sketches are as before. */
  content?: 'main';
  /** content 'main': link-density limit per mille. */
  linkDensity?: number;
  /** content 'main': fewest content tokens of a page kept. */
  minContent?: number;
}

const KNOWN = ['w', 'unit', 'markup', 'kind', 's', 'm', 'k', 'superShingle', 'seed', 'content', 'linkDensity', 'minContent'] as const;
export const DEFAULT_LINK_DENSITY = 0.5;
export const DEFAULT_MIN_CONTENT = 30;
/** The shingle width w: default and range, the one definition the library, the CLI and the scale path read. */
export const W_LIMITS = { default: 8, min: 1, max: 64 } as const;
/** The MIN_s sketch size s: default and range, the one definition the library, the CLI and the scale path read. */
export const S_LIMITS = { default: 128, min: 1, max: 4096 } as const;
/** The default shingle width. */
export const DEFAULT_W = W_LIMITS.default;
/** The default MIN_s size. */
export const DEFAULT_S = S_LIMITS.default;
/** The default MOD_m modulus (the paper's m = 25). */
export const DEFAULT_M = 25;

/** Validates options (coded errors, before any WASM call) and fills in the defaults. */
export function resolveSketchOptions(o: SketchOptions = {}): SketchParams {
  if (o === null || typeof o !== 'object') throw optionError('options', 'an object', o);
  rejectUnknown(o, KNOWN, 'sketch');
  const kind = enumOption('kind', o.kind, 'min', ['min', 'mod', 'adaptive'] as const);
  // 0 is how resolved parameters say "does not apply", so they are accepted back as options.
  if (kind !== 'min' && o.s !== undefined && o.s !== 0) throw optionError('s', `no s with kind '${kind}' (s sizes MIN_s sketches)`, o.s);
  if (kind !== 'mod' && o.m !== undefined && o.m !== 0) throw optionError('m', `no m with kind '${kind}' (m is the MOD_m modulus)`, o.m);
  const seed = o.seed ?? 0n;
  if (typeof seed !== 'bigint' || seed < 0n || seed >= 1n << 64n) throw optionError('seed', 'bigint 0..2^64−1', seed);
  const content = enumOption('content', o.content, 'page', ['page', 'main'] as const);
  if (content === 'page' && o.linkDensity !== undefined) throw optionError('linkDensity', "no value with content 'page' (it applies to content 'main')", o.linkDensity);
  // Resolved parameters given back (every parameter key present, as resolveSketchOptions returns
  // them) hold the link-density limit per mille; options hold it as a share.
  if (content === 'main' && isResolved(o)) o = { ...o, linkDensity: (o.linkDensity as number) / 1000 };
  if (content === 'page' && o.minContent !== undefined) throw optionError('minContent', "no value with content 'page' (it applies to content 'main')", o.minContent);
  const main = content === 'main';
  if (main && (o.unit ?? 'word') !== 'word') throw optionError('unit', "'word' with content 'main' (blocks are made of word tokens)", o.unit);
  if (main && (o.markup ?? 'html') !== 'html') throw optionError('markup', "'html' with content 'main' (blocks are cut at tags)", o.markup);
  const params: SketchParams = {
    w: intOption('w', o.w, W_LIMITS.default, W_LIMITS.min, W_LIMITS.max),
    unit: enumOption('unit', o.unit, 'word', ['word', 'char'] as const),
    markup: enumOption('markup', o.markup, 'html', ['html', 'text'] as const),
    kind,
    s: kind === 'min' ? intOption('s', o.s, S_LIMITS.default, S_LIMITS.min, S_LIMITS.max) : 0,
    m: kind === 'mod' ? intOption('m', o.m, DEFAULT_M, 1, 2 ** 32) : 0,
    k: intOption('k', o.k, 0, 0, 4096),
    superShingle: intOption('superShingle', o.superShingle, 0, 0, 64),
    seed,
  };
  if (main) {
    params.content = 'main';
    params.linkDensity = Math.round(numberOption('linkDensity', o.linkDensity, DEFAULT_LINK_DENSITY, 0, 1) * 1000);
    params.minContent = intOption('minContent', o.minContent, DEFAULT_MIN_CONTENT, 0, 0x7fffffff);
  }
  return params;
}

/** True when `o` has every key of resolved SketchParams (w … seed), as resolveSketchOptions returns them. */
function isResolved(o: SketchOptions): boolean {
  return ['w', 'unit', 'markup', 'kind', 's', 'm', 'k', 'superShingle', 'seed', 'linkDensity', 'minContent'].every((k) => k in o)
    && Number.isInteger(o.linkDensity);
}

/** What a sketch was made of: 'page' or 'main'. */
export function contentOf(p: SketchParams): 'page' | 'main' {
  return p.content ?? 'page';
}

const PARAM_KEYS = ['w', 'unit', 'markup', 'kind', 's', 'm', 'k', 'superShingle', 'seed', 'content', 'linkDensity', 'minContent'] as const;
const normal = (p: SketchParams, k: (typeof PARAM_KEYS)[number]) => (k === 'content' ? contentOf(p) : p[k]);

/** True when two parameter sets make comparable sketches (sketches of different content modes never are). */
export function sameParams(a: SketchParams, b: SketchParams): boolean {
  return PARAM_KEYS.every((k) => normal(a, k) === normal(b, k));
}

/** The parameters that differ, as `w 8 ≠ 10`, for error messages. */
export function paramDiff(a: SketchParams, b: SketchParams): string {
  return PARAM_KEYS.filter((k) => normal(a, k) !== normal(b, k)).map((k) => `${k} ${String(normal(a, k))} ≠ ${String(normal(b, k))}`).join(', ');
}

/** Configures the kernels for these parameters (cheap: tables are rebuilt only when w changes). */
export function configureKernels(p: SketchParams, configure: (w: number, unit: number, markup: number, kind: number, s: number, m: bigint, k: number, seed: bigint) => number): void {
  const r = configure(p.w, p.unit === 'char' ? 1 : 0, p.markup === 'html' ? 1 : 0, ['min', 'mod', 'adaptive'].indexOf(p.kind), Math.max(1, p.s), BigInt(Math.max(1, p.m)), p.k, p.seed);
  if (r !== 0) throw optionError('sketch options', 'parameters the kernel accepts', JSON.stringify(p, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
}
