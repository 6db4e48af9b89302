// Shared by the scale tests: a deterministic corpus with near-duplicate families, exact copies,
// empty pages and boilerplate words (so some shingles are common), and comparisons of pair tables.
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rng } from '../helpers/random.js';

/**
 * Takes a document count and a seed; returns texts in families: a base page, then variants with a
 * few words replaced, some exact copies, every 37th page empty, and a shared footer on every page
 * (its shingles are common, so the common-shingle cap has work to do).
 */
export function corpus(n: number, seed = 7): string[] {
  const rnd = rng(seed);
  const vocab = Array.from({ length: 2000 }, (_, i) => 'w' + i.toString(36));
  const footer = 'contact us privacy terms of use copyright all rights reserved';
  const out: string[] = [];
  let base: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 37 === 36) { out.push(''); continue; }
    const r = rnd();
    if (base.length === 0 || r < 0.35) {
      base = Array.from({ length: 20 + Math.floor(rnd() * 120) }, () => vocab[Math.floor(rnd() * rnd() * vocab.length)]);
      out.push(base.join(' ') + ' ' + footer);
    } else if (r < 0.45) out.push(base.join(' ') + ' ' + footer);
    else {
      const c = base.slice();
      const edits = 1 + Math.floor(rnd() * Math.max(1, c.length / 4));
      for (let k = 0; k < edits; k++) c[Math.floor(rnd() * c.length)] = vocab[Math.floor(rnd() * vocab.length)];
      if (rnd() < 0.3) c.push(...c.slice(0, Math.floor(c.length / 2)));
      out.push(c.join(' ') + ' ' + footer);
    }
  }
  return out;
}

/** The pair columns both paths produce. */
export interface PairColumns {
  count: number;
  a: ArrayLike<number>;
  b: ArrayLike<number>;
  hits: ArrayLike<number>;
  shared: ArrayLike<number>;
  resemblance: ArrayLike<number>;
  containmentAB: ArrayLike<number>;
  containmentBA: ArrayLike<number>;
}

/** Asserts two pair tables are equal row by row (estimates to 1e-12). */
export function assertSamePairs(actual: PairColumns, expected: PairColumns, what: string): void {
  assert.is(actual.count, expected.count, `${what}: pair count`);
  for (let i = 0; i < expected.count; i++) {
    const row = (p: PairColumns) => `${p.a[i]}-${p.b[i]} hits ${p.hits[i]} shared ${p.shared[i]}`;
    assert.is(row(actual), row(expected), `${what}: row ${i}`);
    for (const k of ['resemblance', 'containmentAB', 'containmentBA'] as const) {
      if (Math.abs(actual[k][i] - expected[k][i]) > 1e-12) assert.unreachable(`${what}: row ${i} (${row(expected)}) ${k} ${actual[k][i]} ≠ ${expected[k][i]}`);
    }
  }
}

/** A fresh folder for a test's engine files, under the OS temp dir. */
export function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'resemble-scale-test-'));
}
