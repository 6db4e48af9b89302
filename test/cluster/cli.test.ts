// The dups, query and index commands end to end on the sample crawl, against its planted truth.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { tempDir } from '../io/fixtures.js';

const sample = join(process.cwd(), 'sample');
const truth = JSON.parse(readFileSync(join(sample, 'truth.json'), 'utf8')) as Record<string, string[][] | string[]>;
const { dir, cleanup } = tempDir();

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) } });
  return { code, out, err, records: code === 0 && out.trim() ? out.trim().split('\n').map((l) => JSON.parse(l)) : [] };
}

// The folder reader names directory pages `…/`; truth.json names them `…/index.html`.
const norm = (u: string) => u.replace(/\/$/, '/index.html');

// The planted groups are whole-page near-duplicates: checked with Broder's definition (--content page);
// test/template/sample.test.ts checks the default content mode against the pages' content.
test('dups on the sample crawl: every planted group in one cluster, unique pages in none', async () => {
  const r = await run(['dups', sample, '--content', 'page']);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, /clusters? of near-duplicates hold \d+ of \d+ pages/);
  const clusterOf = new Map<string, number>();
  for (const c of r.records) {
    assert.is(c.members[0].url, c.representative);
    assert.is(c.members[0].kind, 'representative');
    for (const m of c.members) {
      clusterOf.set(norm(m.url), c.cluster);
      if (m.kind !== 'representative') {
        assert.ok(['identical', 'lexical', 'shingle', 'near'].includes(m.kind));
        assert.ok(c.members.some((x: { url: string }) => x.url === m.via), 'via is a member');
        if (m.kind === 'near') assert.ok(m.resemblance >= 0.5 && m.shared > 0 && m.hits > 0);
        assert.is(m.resemblance, Math.round(m.resemblance * 1e4) / 1e4, 'scores rounded to 4 decimals');
      }
    }
  }
  for (const name of ['nearDuplicates', 'identical', 'charsetTwins']) {
    for (const group of truth[name] as string[][]) {
      const present = group.filter((u) => !/\.gif$/.test(u)); // images are not read as documents
      if (present.length < 2) continue;
      const ids = new Set(present.map((u) => clusterOf.get(u) ?? -1));
      assert.is(ids.size, 1, `${name} group of ${present[0]} split: ${[...ids]}`);
      assert.not.ok(ids.has(-1), `${name} group of ${present[0]} not clustered`);
    }
  }
  for (const u of truth.unique as string[]) assert.not.ok(clusterOf.has(u), `unique page ${u} clustered`);
  // Deterministic: the same bytes again.
  assert.is((await run(['dups', sample, '--quiet', '--content', 'page'])).out, r.out);
});

test('dups flags: methods share the output shape; bad values exit 2', async () => {
  for (const argv of [['--method', 'lsh', '--verify'], ['--method', 'super-shingles'], ['--kind', 'mod', '--m', '8', '--containment', '0.9'], ['--prefix-hits', '1']]) {
    const r = await run(['dups', sample, '--quiet', ...argv]);
    assert.is(r.code, 0, r.err);
    assert.ok(r.records.length >= 30, `${argv.join(' ')}: ${r.records.length} clusters`);
    assert.ok(r.records.every((c) => c.members.length === c.size && c.size >= 2));
  }
  for (const argv of [['--threshold', '2'], ['--method', 'kmeans'], ['--verify', '--no-verify'], ['--k', '64'], ['--common-cap', '0'],
    ['--no-verify', '--exact-band', '2'], ['--method', 'lsh', '--prefix', '8'], ['--memory-limit', '1GB'], ['--workers', '0'], ['--engine', 'spark'],
    ['--method', 'lsh', '--prefix-hits', '2'], ['--prefix-hits', '0'], ['--prefix', '0', '--prefix-hits', '2'], ['--prefix', '3', '--prefix-hits', '4']]) {
    const r = await run(['dups', sample, '--quiet', ...argv]);
    assert.is(r.code, 2, `${argv.join(' ')} → ${r.code}: ${r.err}`);
  }
});

/** A JSONL sweep of the sample's sqlite.example.org pages under another host and date; `edit` alters some. */
function sweep(name: string, host: string, date: string, edit: (path: string, html: string) => string): string {
  const root = join(sample, 'sqlite.example.org');
  const lines: string[] = [];
  for (const path of readdirSync(root, { recursive: true }) as string[]) {
    if (!path.endsWith('.html')) continue;
    const html = edit(path, readFileSync(join(root, path), 'utf8'));
    lines.push(JSON.stringify({ url: `http://${host}/${path}`, html, date }));
  }
  const file = join(dir, name);
  writeFileSync(file, lines.sort().join('\n') + '\n');
  return file;
}

test('index build / query / add / remove / clusters round trip, with lost and found across sweeps', async () => {
  const file = join(dir, 'sample.idx');
  const one = sweep('one.jsonl', 'sqlite.example.org', '1997-01-10T00:00:00Z', (_p, h) => h);
  // Months later the site moved host; a few pages changed a little.
  const two = sweep('two.jsonl', 'moved.example.net', '1997-06-01T00:00:00Z', (p, h) => (p.includes('whentouse') ? h + '<p>One more paragraph about where SQLite works well, added when the site moved to its new host.</p>' : h));
  // Whole pages, as Broder's lost and found (content mode's index: test/cluster/index-content.test.ts).
  const built = await run(['index', 'build', file, one, '--quiet', '--content', 'page']);
  assert.is(built.code, 0, built.err);
  const [summary] = built.records;
  assert.ok(summary.documents > 50 && summary.clusters >= 3, JSON.stringify(summary));
  const url = 'http://sqlite.example.org/whentouse.html';
  const q = await run(['query', '--index', file, 'http://sqlite.example.org/releaselog/3_38_0.html']);
  assert.is(q.code, 0, q.err);
  assert.ok(q.records.length >= 3 && q.records.every((h, i) => h.rank === i + 1 && /releaselog\/3_38_/.test(h.url) && h.resemblance >= 0.5));
  assert.is(q.records[0].date, '1997-01-10T00:00:00.000Z');
  // A file outside the index, sketched with the index's parameters.
  const page = join(sample, 'blog.example.com', '2023', '03', 'appropriate-uses-for-sqlite.html');
  const f = await run(['query', '--index', file, page]);
  assert.is(f.code, 0, f.err);
  assert.equal(f.records.map((h) => h.url), [url]);
  // The second sweep: unchanged pages are identical to indexed ones and short-cut.
  const added = await run(['index', 'add', file, two, '--quiet']);
  assert.is(added.code, 0, added.err);
  assert.ok(added.records[0].identical >= summary.documents - 2, JSON.stringify(added.records[0]));
  assert.ok(added.records[0].joins + added.records[0].shingle >= 1, `the edited page joined: ${JSON.stringify(added.records[0])}`);
  const cl = await run(['query', '--index', file, '--cluster', url]);
  assert.equal(cl.records[0].urls, [url, 'http://moved.example.net/whentouse.html']);
  assert.is(cl.records[0].newest, 'http://moved.example.net/whentouse.html', 'lost and found');
  const removed = await run(['index', 'remove', file, 'http://moved.example.net/whentouse.html', '--quiet']);
  assert.is(removed.records[0].removed, 1);
  const after = await run(['query', '--index', file, '--cluster', url]);
  assert.is(after.records[0].newest, url);
  const clusters = await run(['index', 'clusters', file]);
  assert.ok(clusters.records.length > 10 && clusters.records.every((c) => c.urls.length >= 2));
  // Errors: a corrupt file, a missing file, parameters given to add, an unknown URL.
  writeFileSync(join(dir, 'bad.idx'), 'RSMBLIDX but nothing else of use in here at all');
  assert.is((await run(['query', '--index', join(dir, 'bad.idx'), url])).code, 1);
  assert.is((await run(['query', '--index', join(dir, 'missing.idx'), url])).code, 1);
  assert.is((await run(['index', 'add', file, two, '--kind', 'mod'])).code, 2);
  assert.is((await run(['query', '--index', file, 'http://unknown.example/'])).code, 1);
  assert.is((await run(['index', 'rebuild', file])).code, 2);
});

test.after(cleanup);
test.run();
