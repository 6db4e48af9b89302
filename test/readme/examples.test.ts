// Every library example of the README and of the manual (docs/*.md) runs as written (against the
// sources) and prints what the text says it does, checked against what was planted in the sample crawl (sample/truth.json),
// against the slow references, or against a count made here another way. Every example also
// type-checks under --strict, and none goes untested.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { cleanUp, conflicts, examples, root, runExample, shownIn, typecheckExamples } from './examples.js';

interface Truth {
  mirrors: [string, string][];
  collections: { hosts: string[] }[];
  nearDuplicates: string[][];
  identical: string[][];
  charsets: Record<string, string>;
}
const truth = JSON.parse(readFileSync(join(root, 'sample/truth.json'), 'utf8')) as Truth;
const tested = new Set<string>();

/** Runs a README example and records that a test looked at its output. */
function run(name: string): string[] {
  tested.add(name);
  return runExample(name).lines;
}

/** The planted near-duplicate group holding a URL. */
const groupOf = (url: string) => truth.nearDuplicates.find((g) => g.includes(url)) ?? [];

/** Every file under a folder, as paths. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
}

const BLOG = 'http://blog.example.com/2023/03/appropriate-uses-for-sqlite.html';

/** Runs `resemble ARGS --quiet` from the repository root; returns its JSON lines, as text and parsed. */
function cli(...args: string[]): { lines: string[]; records: any[] } {
  const r = spawnSync(process.execPath, ['bin/resemble.js', ...args, '--quiet'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.is(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n').filter(Boolean);
  return { lines, records: lines.map((l) => JSON.parse(l)) };
}

/** Takes an entry point's records; returns them as the CLI prints them, one JSON line each. */
const asLines = (records: readonly unknown[]) => records.map((r) => JSON.stringify(r));

let loaded: Promise<{ documents: number; distinct: number }> | undefined;
/** The sample's page count and its distinct pages by SHA-256 of their UTF-8 bytes (another hash than the library's). */
function sampleCounts(): Promise<{ documents: number; distinct: number }> {
  loaded ??= import('../../src/node.js').then(async ({ loadCrawl, utf8Bytes }) => {
    const { documents } = await loadCrawl(join(root, 'sample'));
    return { documents: documents.length, distinct: new Set(documents.map((d) => createHash('sha256').update(utf8Bytes(d)).digest('hex'))).size };
  });
  return loaded;
}

test('sketch: the example\'s records are resemble sketch\'s, and a record holds sketch()\'s values', async () => {
  const out = run('sketch');
  const { lines, records } = cli('sketch', 'sample/');
  const { sketchCrawl } = await import('../../src/node.js');
  assert.equal(asLines((await sketchCrawl('sample/')).records), lines, 'sketchCrawl(\'sample/\') gives the lines of resemble sketch sample/');
  assert.is(out[0], `${records.length} pages sketched`);
  const page = records.find((r) => r.url === 'http://sqlite.example.org/whentouse.html');
  assert.is(out[1], `${page.id} ${page.distinctShingles} ${page.estimated} ${page.values.length}`);
  // a page of more than s = 128 shingles: its count is the rounded KMV estimate of its values
  const max = BigInt('0x' + page.values[127]);
  assert.equal([page.estimated, page.distinctShingles], [true, Math.round((127 * 2 ** 64) / (Number(max) + 1))]);
  const a = readFileSync(join(root, 'sample/sqlite.example.org/whentouse.html'), 'utf8');
  const b = readFileSync(join(root, 'sample/news.example.net/syndicated/2023-03-15-sqlite.html'), 'utf8');
  const sa = new Set(shingleValuesRef(a)), sb = new Set(shingleValuesRef(b));
  const shared = [...sa].filter((v) => sb.has(v)).length;
  const [r, c] = out[2].split(' ').map(Number);
  assert.ok(Math.abs(r - shared / (sa.size + sb.size - shared)) < 0.15, `resemblance ${r} near the reference Jaccard`);
  assert.ok(Math.abs(c - shared / sa.size) < 0.15, `containment ${c} near the reference ${shared / sa.size}`);
  assert.ok(Math.abs(page.distinctShingles - sa.size) < 0.3 * sa.size, `estimate ${page.distinctShingles} near the ${sa.size} distinct shingles`);
  assert.is(out[3], 'true');
});

test('collections: the example\'s records are resemble collections\'s (clusters, --avoid, --rollup); the planted collection is one cluster', async () => {
  const out = run('collections');
  const clusters = cli('collections', 'sample/');
  const avoid = cli('collections', 'sample/', '--avoid');
  const results = ['http://docs.example.com/sqlite/session/intro.html', 'http://sqlite.example.org/session/changegroup.html', 'http://faq.example.net/FAQ/de/kernel.de.html'];
  const dir = mkdtempSync(join(tmpdir(), 'resemble-results-'));
  const file = join(dir, 'results.txt');
  writeFileSync(file, results.join('\n') + '\n');
  const rolled = cli('collections', 'sample/', '--rollup', '--results', file);
  rmSync(dir, { recursive: true, force: true });
  const { findCollections } = await import('../../src/node.js');
  assert.equal(asLines((await findCollections('sample/')).records), clusters.lines);
  assert.equal(asLines((await findCollections('sample/', { report: 'avoid' })).records), avoid.lines);
  assert.equal(asLines((await findCollections('sample/', { report: 'rollup', results })).records), rolled.lines);
  assert.equal(out, [
    `${clusters.records.length} similar clusters of 388 pages`,
    ...clusters.records.map((r) => `${r.cardinality} copies of ${r.size} pages: ${r.collections.map((c: { host: string }) => c.host).join(' ')}`),
    ...avoid.records.map((e) => `skip ${e.kind} ${e.value}, keep ${e.keepPrefix}`),
    ...rolled.records.map((e) => `${e.rank} ${e.url} ${e.replicas.length}`),
  ]);
  const hosts = clusters.records[0].collections.map((c: { host: string }) => c.host);
  // the www. spelling of a host answering its bytes is read as that host (an alias, as the CLI says)
  for (const h of truth.collections[0].hosts) assert.ok(hosts.includes(h) || hosts.includes(h.replace(/^www\./, '')), `${h} among the copies of the first cluster`);
  assert.is(rolled.records.length, 2, 'three results, two of one collection: two entries');
});

test('signatures: the example\'s records are resemble signatures\'s; the blog repost\'s group is the planted one', async () => {
  const out = run('signatures');
  const { lines, records } = cli('signatures', 'sample/');
  const { findSignatureCollisions } = await import('../../src/node.js');
  assert.equal(asLines((await findSignatureCollisions('sample/')).records), lines);
  const pairs = records.filter((r) => 'a' in r), groups = records.filter((r) => 'group' in r);
  const grouped = groups.reduce((t, g) => t + g.members.length, 0);
  const m = /^(\d+) colliding pairs; (\d+) groups of (\d+) pages; (\d+) distinct signatures$/.exec(out[0]);
  assert.ok(m, out[0]);
  assert.ok(Number(m![1]) >= pairs.length, 'the pairs listed and those implied by groups');
  assert.equal([Number(m![2]), Number(m![3])], [groups.length, grouped]);
  const blog = groups.find((g) => g.members.some((x: { url: string }) => x.url === BLOG));
  assert.equal(out.slice(1), blog.members.map((x: { url: string; rpDistance: number; hmDistance: number }) => `${x.url} ${x.rpDistance} ${x.hmDistance}`));
  assert.equal(blog.members.map((x: { url: string }) => x.url).sort(), groupOf(BLOG).slice().sort());
});

test('sketch-steps: the estimates are near the exact values, and the exact value is the reference Jaccard', () => {
  const out = run('sketch-steps');
  const [est, exact] = out[0].split(' ').map(Number);
  const a = readFileSync(join(root, 'sample/sqlite.example.org/whentouse.html'), 'utf8');
  const b = readFileSync(join(root, 'sample/news.example.net/syndicated/2023-03-15-sqlite.html'), 'utf8');
  const sa = new Set(shingleValuesRef(a)), sb = new Set(shingleValuesRef(b));
  const shared = [...sa].filter((v) => sb.has(v)).length;
  assert.is(exact.toFixed(3), (shared / (sa.size + sb.size - shared)).toFixed(3), 'exact resemblance = reference Jaccard of the 8-shingle sets');
  assert.ok(Math.abs(est - exact) < 0.15, `estimate ${est} within 3 standard errors of ${exact}`);
  const cont = Number(out[1]);
  assert.ok(Math.abs(cont - shared / sa.size) < 0.15, `containment ${cont} near the reference ${shared / sa.size}`);
  assert.is(out[2], '3 true true');
  assert.is(out[3], '3');
});

test('clusters: the example\'s records are resemble dups\'s; the blog repost\'s cluster is the planted group, each member with its evidence', async () => {
  const out = run('clusters');
  const dups = cli('dups', 'sample/');
  const { findNearDuplicates } = await import('../../src/node.js');
  assert.equal(asLines((await findNearDuplicates('sample/')).records), dups.lines, 'findNearDuplicates(\'sample/\') gives the lines of resemble dups sample/');
  const blogRecord = dups.records.find((r) => r.members.some((m: { url: string }) => m.url.includes('/appropriate-uses-')));
  assert.equal(out, [`${dups.records.length} clusters of 388 pages`, ...blogRecord.members.map((m: { url: string; kind: string; resemblance?: number }) => `${m.url} ${m.kind} ${m.resemblance ?? ''}`)]);
  const m = /^(\d+) clusters of 388 pages$/.exec(out[0]);
  assert.ok(m, out[0]);
  const members = out.slice(1).map((l) => l.trim().split(' '));
  assert.equal(members.map((x) => x[0]).sort(), groupOf(BLOG).slice().sort());
  assert.is(members.filter((x) => x[1] === 'representative').length, 1);
  for (const [url, kind, r] of members) {
    assert.ok(['representative', 'identical', 'lexical', 'shingle', 'near'].includes(kind), `${url} ${kind}`);
    if (kind === 'near') assert.ok(Number(r) >= 0.5, `${url} joined at ${r}`);
  }
});

test('clusters: a first near-duplicate script is at most 5 lines and needs the root entry alone', () => {
  const lines = examples.get('clusters')!.split('\n').filter((l) => l.trim() !== '');
  assert.ok(lines.length <= 5, `${lines.length} lines:\n${lines.join('\n')}`);
  const imports = lines.filter((l) => /^import\b/.test(l));
  assert.equal(imports.map((l) => /from '([^']+)'/.exec(l)?.[1]), ['web-resemble'], 'one import, from the root entry');
});

test('index: the example finds the near-duplicate and resumes from the saved bytes', () => {
  const out = run('index');
  assert.match(out[0], /^http:\/\/b\.example\/x duplicates http:\/\/a\.example\/x \(0\.\d\d\)$/);
  assert.is(out[1], 'true');
});

test('items: the datasketch example estimates about 4/7 and finds the set', () => {
  const out = run('items');
  assert.ok(Math.abs(Number(out[0]) - 4 / 7) < 0.2, out[0]);
  assert.is(out[1], "[ 'a' ]");
});

test('readers: every file is a page or a skip, re-encoded pages are the planted charsets, the broken JSONL line is reported', () => {
  const out = run('readers');
  const files = filesUnder(join(root, 'sample'));   // the sample's own README, truth and hosts files are read and skipped too
  const recoded = out.filter((l) => / was /.test(l)).map((l) => l.split(' was '));
  assert.equal(recoded.map(([url]) => url).sort(), Object.keys(truth.charsets).sort());
  // WHATWG decodes the iso-8859-1 label as windows-1252: the printed name is the decoder's.
  for (const [url, cs] of recoded) assert.is(cs, new TextDecoder(truth.charsets[url]).encoding);
  const total = out.find((l) => / pages sketched; /.test(l))!;
  const m = /^(\d+) pages sketched; skipped: (.*)$/.exec(total);
  assert.ok(m, total);
  assert.is(Number(m![1]) + m![2].split(' ').filter(Boolean).length, files.length, 'pages + skipped = files');
  const tail = out.slice(out.indexOf(total) + 1);
  assert.is(tail[0], 'http://a.example/ text/plain');
  assert.match(tail[1], /^line 2: .*\(E_INPUT\)$/);
  assert.is(tail[2], 'http://b.example/ text/html');
  assert.is(tail.length, 3);
});

test('collections-steps: the planted collection is one cluster, the avoid-list keeps one copy, the roll-up folds results', () => {
  const out = run('collections-steps');
  const clusters = out.filter((l) => / copies of \d+ pages on /.test(l));
  assert.ok(clusters.length >= 1, out.join('\n'));
  const first = /^(\d+) copies of (\d+) pages on (.*)$/.exec(clusters[0])!;
  const hosts = first[3].split(' ');
  assert.is(Number(first[1]), hosts.length);
  for (const h of truth.collections[0].hosts) assert.ok(hosts.includes(h), `${h} among the copies of the first cluster: ${clusters[0]}`);
  const avoid = out.filter((l) => /c_changeset_abort\.html (skip|crawl)$/.test(l));
  assert.is(avoid.length, 6);
  assert.is(avoid.filter((l) => l.endsWith(' crawl')).length, 1, `one copy kept: ${avoid.join('\n')}`);
  const rolled = out.slice(out.indexOf(avoid[5]) + 1);
  assert.is(rolled.length, 2, 'three results, two of one collection: two entries');
  assert.ok(rolled[0].startsWith('http://docs.example.com/sqlite/session/intro.html '), rolled[0]);
  assert.ok(rolled[0].split(' ').includes('sqlite.example.org:1'), `the changegroup result rolled up under its copy: ${rolled[0]}`);
  assert.ok(rolled[1].startsWith('http://faq.example.net/FAQ/de/kernel.de.html'), rolled[1]);
});

test('mirrors: the example prints what resemble mirrors prints, and every planted pair is a verified mirror or an alias', () => {
  const out = run('mirrors');
  const cli = spawnSync(process.execPath, ['bin/resemble.js', 'mirrors', 'sample/', '--ips', 'sample/hosts.txt', '--algorithm', 'combined', '--top', '5', '--quiet'], { cwd: root, encoding: 'utf8' });
  assert.is(cli.status, 0, cli.stderr);
  const records = cli.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { a: string; b: string; relation: string });
  assert.equal(out.slice(0, -1), records.map((r) => `${r.a} ${r.b} ${r.relation}`));
  assert.match(out[out.length - 1], /^\d+ hosts, \d+ ranked pairs$/);
  const alias = new Map(records.filter((r) => r.relation === 'alias').map((r) => [r.b, r.a]));
  const host = (h: string) => alias.get(h) ?? h;
  const key = (a: string, b: string) => [host(a), host(b)].sort().join(' ');
  const mirrors = new Set(records.filter((r) => r.relation === 'mirror').map((r) => key(r.a, r.b)));
  for (const [a, b] of truth.mirrors) assert.ok(alias.get(b) === a || alias.get(a) === b || mirrors.has(key(a, b)), `${a} ${b}`);
});

test('study: the tables agree with each other and with the byte-identical pages of the sample', () => {
  const out = run('study');
  const m = /^(\d+) documents, (\d+) clusters, (\d+) duplicates \(([\d.]+)%\)$/.exec(out[0]);
  assert.ok(m, out[0]);
  const [documents, clusters, duplicates, percent] = m!.slice(1).map(Number);
  assert.is(percent.toFixed(1), ((100 * duplicates) / documents).toFixed(1));
  // Byte-identical HTML pages with text are duplicates whatever the paragraphs: a lower bound.
  const byHash = new Map<string, number>();
  for (const f of filesUnder(join(root, 'sample')).filter((f) => f.endsWith('.html'))) {
    const h = createHash('sha256').update(readFileSync(f)).digest('hex');
    byHash.set(h, (byHash.get(h) ?? 0) + 1);
  }
  const identicalExtra = [...byHash.values()].reduce((t, k) => t + k - 1, 0);
  assert.ok(duplicates >= identicalExtra * 0.9, `${duplicates} duplicates, ${identicalExtra} byte-identical copies`);
  const near = out.slice(1, 4).map((l) => /^near-duplicates at (\d+)%: (\d+)$/.exec(l)!);
  assert.equal(near.map((x) => Number(x[1])), [90, 70, 50]);
  const counts = near.map((x) => Number(x[2]));
  assert.ok(counts[0] >= duplicates && counts[0] <= counts[1] && counts[1] <= counts[2], counts.join(' '));
  const reached = /^(\d+) documents reached by links from (\S+); they meet (\d+) of (\d+) clusters$/.exec(out[4]);
  assert.ok(reached, out[4]);
  assert.is(Number(reached![4]), clusters);
  assert.ok(Number(reached![3]) <= clusters && Number(reached![3]) <= Number(reached![1]));
  assert.match(out[5], new RegExp(`^Documents: 388 read, ${documents} considered, `));
});

test('signatures-steps: colliding pairs are near-duplicates by exact Jaccard, and the blog repost\'s group is the planted one', () => {
  const out = run('signatures-steps');
  const m = /^(\d+) colliding pairs, (\d+) of them with exact Jaccard ≥ 0\.8; (\d+) groups$/.exec(out[0]);
  assert.ok(m, out[0]);
  const [pairs, close, groups] = m!.slice(1).map(Number);
  assert.ok(pairs > 100 && close / pairs >= 0.95, `precision ${close} / ${pairs}`);
  assert.ok(groups > 10);
  const members = out.slice(1).map((l) => l.split(' '));
  assert.equal(members.map((x) => x[0]).sort(), groupOf(BLOG).slice().sort());
  assert.is(Number(members[0][1]), 0);
  for (const [, d] of members) assert.ok(Number(d) < 0.03, `RP distance ${d} under D`);
});

test('pool: the workers sketch what one thread does, and count the distinct pages as a hash does', async () => {
  const out = run('pool');
  assert.is(out[0], '388 pages sketched on 2 workers');
  assert.is(out[1], 'identical to sketchMany on one thread: true');
  const { documents, distinct } = await sampleCounts();
  assert.is(out[2], `${distinct} distinct documents of ${documents}`);
});

test('errors: each failure has its code and names what was wrong; a bad document is reported, not thrown', () => {
  const out = run('errors');
  assert.is(out[0], 'E_NOT_INITIALIZED');
  assert.match(out[1], /^E_OPTION .*\bw\b.*got 0 \{"option":"w",/);
  assert.match(out[2], /^E_OPTION .*\{"option":"s",/);
  assert.match(out[3], /^E_FORMAT /);
  assert.is(out[4], '3 [');
  assert.match(out.slice(5).join('\n'), /index: 1,\n\s+message: 'document 1: [^']+'\n\s+\}\n\]$/);
});

test('types: the typed example finds earlier copies of the planted near-duplicates', async () => {
  const out = run('types');
  const [count, key, r] = out[0].split(' ');
  // Every page byte-identical to an earlier one has an earlier copy; the first of each never has.
  const { documents, distinct } = await sampleCounts();
  assert.ok(Number(count) >= documents - distinct && Number(count) <= documents - 1, `${out[0]}: ${documents} pages, ${distinct} distinct`);
  assert.ok(groupOf('http://www.sqlite.example.org/whentouse.html').includes(key), key);
  assert.ok(Number(r) >= 0.9, r);
  assert.is(out[1], 'E_KEY');
});

test('sites: every page once, in the sites routeSites gives in one call (a count made another way)', async () => {
  const out = run('sites');
  const { init, loadCrawl, utf8Bytes, fingerprintMany, routeSites, isRedirectStub } = await import('../../src/advanced.js');
  await init();
  const { documents } = await loadCrawl(join(root, 'sample'));
  const bytes = documents.map(utf8Bytes);
  const { sites } = routeSites(documents.map((d) => d.url), fingerprintMany(bytes), 8, (i) => isRedirectStub(bytes[i]));
  const expected = new Map<string, number>();
  for (const s of sites) expected.set(s, (expected.get(s) ?? 0) + 1);
  const printed = new Map(out.slice(0, -1).map((l) => { const m = /^(\S+): (\d+) pages, (template left out|sketched whole)$/.exec(l)!; assert.ok(m, l); return [m[1], Number(m[2])] as const; }));
  assert.equal([...printed].sort(), [...expected].sort());
  assert.is(out.at(-1), `${documents.length} content sketches`);
  assert.ok(printed.get('sqlite.example.org/session')! > 8 && printed.has('sqlite.example.org/'), 'a folder of a host is a site of its own');
});

test('entry points: the counts are resemble dups\'s, dedup drops the copy, an abort is E_ABORTED, a broken page is reported', () => {
  const cli = spawnSync(process.execPath, ['bin/resemble.js', 'dups', 'sample/'], { cwd: root, encoding: 'utf8' });
  const counts = /dups: (\d+) clusters? of near-duplicates hold (\d+) of (\d+) pages/.exec(cli.stderr)!;
  assert.ok(counts, cli.stderr);
  assert.equal(run('entry-dups'), [`${counts[1]} clusters hold ${counts[2]} of ${counts[3]} pages`]);
  assert.equal(run('entry-dedup'), ['1 http://b.example/1 identical']);
  assert.equal(run('entry-progress'), ['E_ABORTED']);
  assert.equal(run('entry-errors'), ['page 1 expected a string "url"; skipped', '2 1']);
});

test('index entry: buildIndex has the clusters of resemble dups, and queryIndex numbers its hits as dups does', () => {
  const cli = spawnSync(process.execPath, ['bin/resemble.js', 'dups', 'sample/', '--quiet'], { cwd: root, encoding: 'utf8' });
  const dups = cli.stdout.trim().split('\n').map((l) => JSON.parse(l) as { cluster: number; members: { url: string }[] });
  const out = run('index-entry');
  assert.is(out[0], `${dups.length} clusters of 388 pages, true`);
  const when = dups.find((c) => c.members.some((m) => m.url === 'http://sqlite.example.org/whentouse.html'))!;
  assert.is(out.length, 3);
  for (const [i, line] of out.slice(1).entries()) {
    const [rank, url, cluster] = line.split(' ');
    assert.is(rank, String(i + 1));
    assert.ok(groupOf(BLOG).includes(url), `${url} is in the planted group`);
    assert.is(Number(cluster), when.cluster, 'the number dups gives its cluster');
  }
});

test('an example shown in two files is the same code in both', () => {
  assert.equal(conflicts, []);
  assert.ok([...shownIn.values()].some((files) => files.length > 1 && files[0] === 'README.md'), 'the README\'s examples are read with the manual\'s');
  assert.ok([...shownIn.values()].some((files) => files.every((f) => f.startsWith('docs/'))), 'examples only in docs/ are read too');
});

test('every README and docs example type-checks under --strict against the sources', () => {
  assert.equal(typecheckExamples(), []);
});

test('every README and docs example is run by a test above', () => {
  assert.ok(examples.size >= 12, [...examples.keys()].join(' '));
  assert.equal([...examples.keys()].filter((n) => !tested.has(n)), []);
});

test.after(cleanUp);
test.run();
