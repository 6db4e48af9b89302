// The rule across templates (src/cluster/cross-template.ts): a page that is mostly template and a
// near copy of it on a site without that template are joined in content mode when the whole pages
// prove the copy, and pages that share only a template are not. Checked on the sample with a
// planted copy, and against a brute-force reference over every pair of a small generated crawl.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { findNearDuplicates } from '../../src/node.js';
import { joinsAcrossTemplates } from '../../src/cluster/cross-template.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { TemplateLearner } from '../../src/template/index.js';
import { siteOfUrl } from '../../src/stream/sketch-crawl.js';
import { contentTokensRef } from '../../src/reference/template.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { Rng } from '../helpers/random.js';

await init();

/** Takes a page; returns it with every 60th word (3 letters or more) of its text spelt backwards: a near copy. */
function nearCopy(html: string, every = 60): string {
  let n = 0;
  return html.replace(/>([^<]+)/g, (_, text: string) => '>' + text.replace(/[A-Za-z]{3,}/g, (w) => (++n % every === 0 ? [...w].reverse().join('') : w)));
}

const jaccard = (a: Set<bigint>, b: Set<bigint>) => { let x = 0; for (const v of a) if (b.has(v)) x++; return x / (a.size + b.size - x); };
const containment = (a: Set<bigint>, b: Set<bigint>) => { let x = 0; for (const v of a) if (b.has(v)) x++; return a.size > 0 ? x / a.size : 0; };

/** The crawl's pages (those of `only`, when given), each with its table (as a learner fed the pages in input order learns them per site), content and whole shingle sets. */
async function referenceOf(input: string, only?: readonly string[]) {
  const docs = (await loadCrawl([input])).documents.filter((d) => /\.html$/.test(d.url));
  const learner = new TemplateLearner<number>();
  const tableOf: (BigUint64Array | undefined)[] = [];
  for (const r of [...docs.flatMap((d, i) => learner.add(d.bytes, siteOfUrl(d.url), i)), ...learner.flush()]) tableOf[r.item] = r.table;
  const pages = docs.flatMap((d, i) => {
    if (only && !only.includes(d.url)) return [];
    const t = tableOf[i];
    const whole = new Set(shingleValuesRef(d.bytes));
    const tokens = contentTokensRef(d.bytes, new Set(t ?? []), 500, 30);
    const content = t ? new Set(shingleValuesRef(tokens.join(' '), { markup: 'text' })) : whole;
    return [{ url: d.url, table: t, content, whole }];
  });
  return pages;
}

test('sample with a near copy of a release note that is mostly template on a host without one: content mode joins it to its original', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'resemble-across-'));
  try {
    const crawl = join(dir, 'sample');
    cpSync(join(process.cwd(), 'sample'), crawl, { recursive: true });
    const original = readFileSync(join(crawl, 'sqlite.example.org/releaselog/3_38_1.html'), 'utf8');
    writeFileSync(join(crawl, 'notes.example.com/sqlite-notes/3_38_1.html'), nearCopy(original));
    const copy = 'http://notes.example.com/sqlite-notes/3_38_1.html', of = 'http://sqlite.example.org/releaselog/3_38_1.html';
    // the reference: the whole pages are near copies, their contents are not (the original is mostly template)
    const ref = await referenceOf(crawl, [copy, of]);
    const a = ref.find((p) => p.url === copy)!, b = ref.find((p) => p.url === of)!;
    assert.ok(jaccard(a.whole, b.whole) >= 0.75, `whole-page resemblance ${jaccard(a.whole, b.whole)}`);
    assert.ok(jaccard(a.content, b.content) < 0.5, `content resemblance ${jaccard(a.content, b.content)}`);
    assert.ok(containment(b.content, a.content) >= 0.7, `containment ${containment(b.content, a.content)}`);
    const records: string[] = [];
    for (const workers of [1, 2]) {
      const found = await findNearDuplicates(crawl, { workers });
      records.push(JSON.stringify(found.records));
      const with_ = found.records.find((r) => r.members.some((m) => m.url === copy));
      assert.ok(with_ && with_.members.some((m) => m.url === of), `workers ${workers}: the copy is not with its original`);
      assert.ok(found.summary.content!.acrossJoined >= 1 && found.summary.content!.acrossChecked >= found.summary.content!.acrossJoined);
      // the pair that joined the copy carries the whole pages' exact resemblance
      const joined = with_!.members.find((m) => (m.url === copy && m.via !== undefined) || m.via === copy)!;
      assert.ok(joined.resemblance! >= 0.75, JSON.stringify(joined));
    }
    // the same records on DuckDB (the candidate step in SQL, the sketches on disk)
    const duck = await findNearDuplicates(crawl, { workers: 2, engine: 'duckdb', engineOptions: { memoryLimit: '256MB', tempDir: dir } });
    assert.is(JSON.stringify(duck.records), records[0]);
    assert.is(records[1], records[0]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Words of a made-up language: syllables drawn from `rng`. */
function words(rng: Rng, n: number): string {
  const syl = ['ka', 'lo', 'mi', 'ne', 'tur', 'vas', 'pel', 'dor', 'quin', 'sa', 'ber', 'fu', 'gan', 'hol', 'jir'];
  return Array.from({ length: n }, () => Array.from({ length: 2 + (rng.nextU32() % 3) }, () => syl[rng.nextU32() % syl.length]).join('')).join(' ');
}

/** A site's template: heavy text blocks above and below the content (about 300 words). */
function template(rng: Rng, name: string): { head: string; foot: string } {
  const ps = (k: number) => Array.from({ length: k }, () => `<p>${words(rng, 38)}</p>`).join('\n');
  return { head: `<header><h2>${name}</h2>\n${ps(5)}</header>`, foot: `<footer>${ps(3)}</footer>` };
}

const page = (title: string, t: { head: string; foot: string } | undefined, body: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body>\n${t?.head ?? ''}\n<main><h1>${title}</h1>\n${body}</main>\n${t?.foot ?? ''}\n</body></html>\n`;

test('a generated crawl: the clusters are the components of the pair rule, content resemblance or the rule across templates, over every pair', async () => {
  const rng = new Rng(41);
  const dir = mkdtempSync(join(tmpdir(), 'resemble-across-'));
  try {
    const x = template(rng, 'Site X'), y = template(rng, 'Site Y');
    const lines: string[] = [];
    const put = (url: string, html: string) => lines.push(JSON.stringify({ url, html }));
    const body = (k: number) => Array.from({ length: k }, () => `<p>${words(rng, 30)}</p>`).join('\n');
    const xPages: string[] = [];
    // two templated sites: pages mostly template (about 300 words of it around 210-240 of their own)
    for (let i = 0; i < 12; i++) { const h = page(`X ${i}`, x, body(7 + (i % 2))); xPages.push(h); put(`http://x.example/a/${i}.html`, h); }
    for (let i = 0; i < 12; i++) put(`http://y.example/b/${i}.html`, page(`Y ${i}`, y, body(7 + (i % 2))));
    // small hosts (no template learnt): near copies of X pages (joined by the rule), a heavily
    // edited copy (whole-page resemblance under the threshold), a new page in X's template (shares
    // only the template), X's content inside a long page of other text (contained, not resembling)
    put('http://c.example/n/0.html', nearCopy(xPages[0]));
    put('http://d.example/n/1.html', nearCopy(xPages[1]));
    put('http://c.example/n/2.html', nearCopy(xPages[2], 3));
    put('http://e.example/n/3.html', page('New', x, body(8)));
    put('http://c.example/n/4.html', page('Long', undefined, body(12) + xPages[4].slice(xPages[4].indexOf('<main>'), xPages[4].indexOf('</main>')) + body(12)));
    // an X page's content in Y's template: content mode joins it as ever
    put('http://y.example/b/syndicated.html', page('Syndicated', y, xPages[5].slice(xPages[5].indexOf('<h1>'), xPages[5].indexOf('</main>'))));
    const input = join(dir, 'crawl.jsonl');
    writeFileSync(input, lines.join('\n') + '\n');

    const ref = await referenceOf(input);
    const t = 0.5, n = ref.length;
    const parent = Array.from({ length: n }, (_, i) => i);
    const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
    let across = 0, near = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const p = ref[i], q = ref[j];
        const r = jaccard(p.content, q.content);
        const share = (d: typeof p) => (d.table && d.table.length > 0 ? 1 - d.content.size / d.whole.size : 0);
        const mostly = (d: typeof p) => d.table !== undefined && d.table.length > 0 && share(d) >= 1 - t;
        const differ = p.table !== q.table;
        const w = jaccard(p.whole, q.whole), cpq = containment(p.content, q.content), cqp = containment(q.content, p.content);
        const rule = differ && joinsAcrossTemplates(t, w, cpq, cqp, mostly(p), mostly(q));
        // clear cases only: the content resemblance, and the rule's values (one clearly under decides it), away from the threshold
        const clear = (vs: number[]) => vs.every((v) => v > t + 0.08) || vs.some((v) => v < t - 0.08);
        assert.ok(clear([r]), `${p.url} ${q.url}: content resemblance ${r}`);
        if (differ && mostly(p)) assert.ok(clear([w, cpq]), `${p.url} ${q.url}: ${w}, ${cpq}`);
        if (differ && mostly(q)) assert.ok(clear([w, cqp]), `${p.url} ${q.url}: ${w}, ${cqp}`);
        if (r >= t || rule) parent[find(i)] = find(j);
        if (rule && r < t) across++;
        if (r >= t) near++;
      }
    }
    assert.ok(across >= 2 && near >= 1, `${across} pairs joined across templates, ${near} by content`);
    const want = new Map<number, string[]>();
    ref.forEach((p, i) => want.set(find(i), [...(want.get(find(i)) ?? []), p.url]));
    const expected = [...want.values()].filter((g) => g.length > 1).map((g) => g.sort().join(' ')).sort();
    // content mode's own sketch options given (their defaults) do not reach the whole pages' check
    for (const [workers, sketch] of [[1, undefined], [2, { content: 'main' as const, minContent: 30, linkDensity: 0.5 }]] as const) {
      const found = await findNearDuplicates(input, { workers, ...(sketch ? { sketch } : {}) });
      const got = found.records.map((r) => r.members.map((m) => m.url).sort().join(' ')).sort();
      assert.equal(got, expected, `workers ${workers}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
