import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';

/** A version 2 record's verdict as the mirroring test returned it: verdict, reason, deciding alignment, pages compared. */
const verdictOf = (x: Record<string, any>) => {
  const v = x.evidence.verdict;
  if (!v) return undefined;
  const alignment = v.deciding === undefined ? undefined : v.alignments[v.deciding];
  return { ...v, verdict: x.relation, alignment, tested: alignment?.compared ?? 0 };
};


// The committed slice of the realistic crawl: real pages, no root pages, prefix-shifted, partial,
// lagging and re-encoded (EUC-JP) mirrors, and a page copied onto a blog. Truth from how it was built.
const slice = fileURLToPath(new URL('../fixtures/realistic-slice/', import.meta.url));
const truth = JSON.parse(readFileSync(join(slice, 'truth', 'copies.json'), 'utf8')) as { hostPairs: Array<{ a: string; b: string; mirror: boolean }> };
const key = (a: string, b: string) => [a, b].sort().join(' ');
const mirrors = new Set(truth.hostPairs.filter((p) => p.mirror).map((p) => key(p.a, p.b)));

test('mirrors on the realistic slice: every mirrored host pair verified, no other pair called a mirror', async () => {
  let out = '', err = '';
  const code = await main(['mirrors', join(slice, 'crawl'), '--algorithm', 'hybrid', '--verify', '--min-urls', '1', '--top', '0'], {
    stdout: { write: (c: string) => (out += c) },
    stderr: { write: (c: string) => (err += c), isTTY: false },
  });
  assert.is(code, 0, err);
  const records = out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const said = new Map(records.map((r) => [key(r.a, r.b), r]));
  let verified = 0;
  for (const k of mirrors) {
    const r = said.get(k);
    assert.ok(r, `${k} ranked`);
    const v = verdictOf(r)!;
    // The slice keeps few pages: a pair with fewer than 3 pages in common is copied pages or undetermined, never `not mirror`.
    if (v.alignment && v.alignment.common < 3) assert.ok(['undetermined', 'copied pages'].includes(v.verdict), `${k}: ${JSON.stringify(v)}`);
    else {
      assert.is(v.verdict, 'mirror', `${k}: ${JSON.stringify(v)}`);
      verified++;
    }
  }
  assert.ok(verified >= mirrors.size - 1, `${verified} of ${mirrors.size}`);
  for (const r of records) if (!mirrors.has(key(r.a, r.b))) assert.is.not(verdictOf(r)!.verdict, 'mirror', `${r.a} ${r.b}`);
  // The prefix-shifted partial Django mirror is compared across its alignment.
  const shifted = verdictOf(said.get(key('docs.django.example.org', 'mirror.example.net'))!)!.alignment;
  assert.equal([shifted.prefixA, shifted.prefixB], ['/en/3.2/releases/', '/django/3.2/releases/']);
  // Mirrors rank above every other pair.
  const firstOther = records.findIndex((r) => !mirrors.has(key(r.a, r.b)));
  assert.ok(firstOther < 0 || firstOther >= mirrors.size, `a non-mirror at rank ${firstOther + 1}`);
});

test.run();
