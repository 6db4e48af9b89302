// dups in its default content mode on the sample crawl, against the pages' content: a planted
// group member joins its group when its content (by the slow reference, with the learnt
// templates) has exact resemblance ≥ 0.5 with another member's; byte-identical copies always do.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { init } from '../../src/index.js';
import { TemplateLearner } from '../../src/template/index.js';
import { siteOfUrl } from '../../src/stream/sketch-crawl.js';
import { contentTokensRef } from '../../src/reference/template.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';

await init();
const sample = join(process.cwd(), 'sample');
const truth = JSON.parse(readFileSync(join(sample, 'truth.json'), 'utf8')) as Record<string, string[][] | string[]>;
const norm = (u: string) => u.replace(/\/$/, '/index.html');

test('dups --content main (the default) on the sample crawl agrees with the exact content resemblance', async () => {
  let out = '', err = '';
  const tmp = mkdtempSync(join(tmpdir(), 'resemble-thin-'));
  const thinFile = join(tmp, 'thin.jsonl');
  const code = await main(['dups', sample, '--thin-out', thinFile], { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) } });
  assert.is(code, 0, err);
  assert.match(err, /content: \d+ of 21 sites repeat a layout on their pages/);
  const thin = readFileSync(thinFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; contentWords: number; template: number });
  rmSync(tmp, { recursive: true, force: true });
  const count = Number(/(\d+) pages? ha(?:ve|s) fewer than 30 words of (?:their|its) own/.exec(err)?.[1]);
  assert.is(thin.length, count);
  assert.ok(count > 0 && thin.every((t) => t.contentWords < 30 && t.template >= 0 && t.template <= 1), JSON.stringify(thin.slice(0, 3)));
  const clusterOf = new Map<string, number>();
  for (const line of out.trim().split('\n')) {
    const c = JSON.parse(line);
    for (const m of c.members) {
      clusterOf.set(norm(m.url), c.cluster);
      assert.ok(m.template >= 0 && m.template < 1 && m.contentShingles >= 1, JSON.stringify(m));
    }
  }
  // the reference content of every page, with the templates a learner fed the pages in input order learns (per site)
  const crawl = await loadCrawl([sample]);
  const docs = crawl.documents;
  const bytes = docs.map((d) => d.bytes);
  const learner = new TemplateLearner<number>();
  const tableOf: (BigUint64Array | undefined)[] = [];
  for (const r of [...docs.flatMap((d, i) => learner.add(bytes[i], siteOfUrl(d.url), i)), ...learner.flush()]) tableOf[r.item] = r.table;
  const byUrl = new Map(docs.map((d, i) => [norm(d.url), i]));
  const cache = new Map<number, Set<bigint>>();
  const content = (i: number) => {
    if (cache.has(i)) return cache.get(i)!;
    // a page whose site has no heavy template is sketched whole: its shingles are the whole page's
    const t = tableOf[i];
    const set = new Set(t ? shingleValuesRef(contentTokensRef(bytes[i], new Set(t), 500, 30).join(' '), { markup: 'text' }) : shingleValuesRef(bytes[i]));
    cache.set(i, set);
    return set;
  };
  const jaccard = (a: Set<bigint>, b: Set<bigint>) => { let x = 0; for (const v of a) if (b.has(v)) x++; return x / (a.size + b.size - x); };
  let checked = 0;
  for (const name of ['nearDuplicates', 'identical', 'charsetTwins']) {
    for (const group of truth[name] as string[][]) {
      const present = group.filter((u) => byUrl.has(u));
      for (let x = 0; x < present.length; x++) {
        const sameBytes = present.some((u, y) => y !== x && Buffer.compare(Buffer.from(bytes[byUrl.get(u)!]), Buffer.from(bytes[byUrl.get(present[x])!])) === 0);
        const best = sameBytes ? 1 : Math.max(...present.map((u, y) => (y === x ? 0 : jaccard(content(byUrl.get(present[x])!), content(byUrl.get(u)!)))));
        // clear cases only: the estimate may fall either side of 0.5 near it
        if (sameBytes || best >= 0.65) {
          checked++;
          const c = clusterOf.get(present[x]);
          assert.ok(c !== undefined && present.some((u, y) => y !== x && clusterOf.get(u) === c), `${name}: ${present[x]} (content resemblance ${best.toFixed(3)}) not with its group`);
        } else if (best < 0.35 && !sameBytes) {
          const c = clusterOf.get(present[x]);
          assert.ok(c === undefined || !present.some((u, y) => y !== x && clusterOf.get(u) === c), `${name}: ${present[x]} (content resemblance ${best.toFixed(3)}) joined its group`);
        }
      }
    }
  }
  assert.ok(checked > 150, `${checked} members checked`);
  for (const u of truth.unique as string[]) assert.not.ok(clusterOf.has(u), `unique page ${u} clustered`);
});

test.run();
