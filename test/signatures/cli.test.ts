import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { tempDir } from '../io/fixtures.js';
import { rng } from '../helpers/random.js';

const { dir, cleanup } = tempDir();

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) } });
  return { code, out, err };
}

const rnd = rng(77);
const words = (n: number) => Array.from({ length: n }, () => `w${Math.floor(rnd() * 20000).toString(36)}`).join(' ');

// A forum shows one text in two views, each linking to other messages; a mirror copies a page and its messages.
const pages: Array<{ url: string; text: string; links: string[] }> = [];
const add = (url: string, text: string, links: string[] = []) => { pages.push({ url, text, links }); return url; };
const messages = (prefix: string) => Array.from({ length: 8 }, (_, i) => add(`${prefix}/m${i}.html`, words(60)));
const forumText = words(120);
add('http://forum.example/by-date.html', forumText, messages('http://forum.example/2003-01'));
add('http://forum.example/by-thread.html', forumText, messages('http://forum.example/2003-02'));
const own = messages('http://docs.example/list');
const copies = own.map((u, i) => add(`http://mirror.example/list/m${i}.html`, pages.find((p) => p.url === u)!.text));
const body = words(120);
add('http://docs.example/list/index.html', body, own);
add('http://mirror.example/list/index.html', body, copies);
writeFileSync(join(dir, 'crawl.jsonl'), pages.map((p) =>
  JSON.stringify({ url: p.url, html: `<html><body><p>${p.text}</p>${p.links.map((l) => `<a href="${l}"></a>`).join('')}</body></html>` })).join('\n'));

type Group = { group: number; size: number; members: Array<{ url: string; rpDistance: number; hmDistance: number }> };
type Pair = { a: string; b: string; rpDistance: number; hmDistance: number };
const together = (groups: Group[], a: string, b: string) => groups.some((g) => g.members.some((m) => m.url === a) && g.members.some((m) => m.url === b));
const records = (out: string) => out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

test('signatures records (version 2): a page copied 100 times is one group listing each copy once, no pairs among them; a small group lists its pairs', async () => {
  const copyText = words(150), pairText = words(150);
  const lines = [
    ...Array.from({ length: 100 }, (_, i) => ({ url: `http://copies.example/c${i}.html`, html: `<p>${copyText}</p>` })),
    { url: 'http://one.example/a.html', html: `<p>${pairText}</p>` },
    { url: 'http://two.example/a.html', html: `<p>${pairText}</p>` },
    ...Array.from({ length: 30 }, (_, i) => ({ url: `http://other.example/p${i}.html`, html: `<p>${words(150)}</p>` })),
  ];
  writeFileSync(join(dir, 'copies.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
  const r = await run(['signatures', join(dir, 'copies.jsonl'), '--content', 'page']);
  assert.is(r.code, 0, r.err);
  const all = records(r.out);
  const pairs = all.filter((x) => 'a' in x), groups = all.filter((x) => 'group' in x);
  assert.equal(pairs, [{ a: 'http://one.example/a.html', b: 'http://two.example/a.html', rpDistance: 0, hmDistance: 0 }]);
  assert.is(groups.length, 2);
  const [big, small] = groups;
  assert.equal([big.size, big.pairsListed, small.size, small.pairsListed], [100, false, 2, true]);
  assert.equal(big.members.map((m: { url: string }) => m.url), lines.slice(0, 100).map((l) => l.url));
  assert.equal(big.members[0], { url: 'http://copies.example/c0.html', rpDistance: 0, hmDistance: 0 });
  for (const m of big.members.slice(1)) assert.equal(m, { url: m.url, rpDistance: 0, hmDistance: 0, copyOf: 'http://copies.example/c0.html' });
  assert.match(r.err, "signatures: 4951 pairs of pages whose signatures match within the tolerances and whose texts' 8-word shingles are at least 0.85 alike (exact resemblance; 0 of the 0 pairs of distinct signatures within the tolerances were less alike and were dropped) (1 listed, the rest implied by the group records); 2 groups of pages in which every two match, holding 102 pages; 32 distinct signatures");
  const unverified = await run(['signatures', join(dir, 'copies.jsonl'), '--content', 'page', '--verify-at', '0']);
  assert.equal(records(unverified.out), all, 'no candidate between distinct signatures here: the same records unverified');
  assert.match(unverified.err, 'signatures: 4951 pairs of pages whose signatures match within the tolerances (1 listed');
});

test('signatures: colliding pairs with distances, then groups that do not chain; the forum views collide only on RP', async () => {
  const both = await run(['signatures', join(dir, 'crawl.jsonl'), '--k', '5', '--C', '0.02', '--D', '0.01', '-q']);
  assert.is(both.code, 0, both.err);
  const all = records(both.out);
  const pairs: Pair[] = all.filter((r) => 'a' in r);
  const groups: Group[] = all.filter((r) => 'group' in r);
  assert.is(pairs.length + groups.length, all.length);
  assert.ok(all.findIndex((r) => 'group' in r) >= pairs.length, 'pairs come first');
  const collide = (a: string, b: string) => pairs.some((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a));
  assert.ok(collide('http://docs.example/list/index.html', 'http://mirror.example/list/index.html'));
  for (let i = 0; i < 8; i++) assert.ok(collide(`http://docs.example/list/m${i}.html`, `http://mirror.example/list/m${i}.html`));
  assert.not.ok(collide('http://forum.example/by-date.html', 'http://forum.example/by-thread.html'));
  for (const p of pairs) assert.ok(p.rpDistance < 0.01 && p.hmDistance < 0.02);
  assert.ok(together(groups, 'http://docs.example/list/index.html', 'http://mirror.example/list/index.html'));
  // No chaining: every two members of a group are a colliding pair.
  for (const g of groups) {
    assert.is(g.size, g.members.length);
    assert.equal([g.members[0].rpDistance, g.members[0].hmDistance], [0, 0]);
    for (let x = 0; x < g.members.length; x++) for (let y = x + 1; y < g.members.length; y++) assert.ok(collide(g.members[x].url, g.members[y].url));
  }
  const onlyGroups = await run(['signatures', join(dir, 'crawl.jsonl'), '--k', '5', '--C', '0.02', '--D', '0.01', '--records', 'groups', '-q']);
  assert.equal(records(onlyGroups.out), groups);
  const onlyPairs = await run(['signatures', join(dir, 'crawl.jsonl'), '--k', '5', '--C', '0.02', '--D', '0.01', '--records', 'pairs', '-q']);
  assert.equal(records(onlyPairs.out), pairs);
  const rpOnly = await run(['signatures', join(dir, 'crawl.jsonl'), '--k', '5', '--C', '2', '--D', '0.01', '--records', 'groups', '-q']);
  assert.ok(together(records(rpOnly.out), 'http://forum.example/by-date.html', 'http://forum.example/by-thread.html'));
  // The defaults find the mirror too.
  const defaults = await run(['signatures', join(dir, 'crawl.jsonl'), '--records', 'pairs', '-q']);
  assert.ok(records(defaults.out).some((p: Pair) => p.a === 'http://docs.example/list/index.html' && p.b === 'http://mirror.example/list/index.html'));
  assert.is((await run(['signatures', join(dir, 'crawl.jsonl'), '--records', 'clusters'])).code, 2);
});

test('signatures --evaluate: precision–recall rows per (C, D), a plot, and flags checked', async () => {
  const plots = join(dir, 'plots');
  const r = await run(['signatures', join(dir, 'crawl.jsonl'), '--k', '5', '--evaluate', '--sweep-C', '0.02,2', '--sweep-D', '0.01', '--rp-only-D', '0.01,0.05', '--plots', plots, '--format', 'json', '-q']);
  assert.is(r.code, 0, r.err);
  const rows = JSON.parse(r.out);
  assert.equal(rows.map((x: { curve: string; C: number; D: number }) => [x.curve, x.C, x.D]), [['D = 0.01', 0.02, 0.01], ['D = 0.01', 2, 0.01], ['RP only', 2, 0.01], ['RP only', 2, 0.05]]);
  // Replicated pages: the forum views (same text) and the mirrored pages, 2 + 18; all are found with RP alone.
  assert.is(rows[2].recall, 1);
  assert.is(rows[2].precision, 1);
  assert.ok(rows[0].recall < 1);
  // Pair level against exact shingle Jaccard: 9 mirrored pairs and the forum views (identical text) have Jaccard 1.
  assert.is(rows[2].pairsWanted, 10);
  assert.is(rows[2].pairRecall, 1);
  assert.is(rows[2].pairPrecision, 1);
  assert.is(rows[0].pairsFound, 9, 'HM separates the forum views');
  assert.match(readFileSync(join(plots, 'precision-recall.svg'), 'utf8'), /^<svg/);
  writeFileSync(join(dir, 'ref.txt'), '# forum views\nhttp://forum.example/by-date.html\nhttp://forum.example/by-thread.html\n');
  const ref = await run(['signatures', join(dir, 'crawl.jsonl'), '--k', '5', '--evaluate', '--reference', join(dir, 'ref.txt'), '--sweep-C', '0.02', '--sweep-D', '0.01', '--rp-only-D', '0.01', '--format', 'json', '-q']);
  const refRows = JSON.parse(ref.out);
  assert.is(refRows[0].recall, 0); // HM separates the two views
  assert.is(refRows[1].recall, 1); // RP alone finds them
  assert.is((await run(['signatures', join(dir, 'crawl.jsonl'), '--C', '0'])).code, 2);
  assert.is((await run(['signatures', join(dir, 'crawl.jsonl'), '--k', '0'])).code, 2);
  assert.is((await run(['signatures', join(dir, 'crawl.jsonl'), '--plots', plots])).code, 2);
  assert.is((await run(['signatures', join(dir, 'crawl.jsonl'), '--pair-recall-at', '0.5'])).code, 2, 'needs --evaluate');
});

test('bad input: one page, no links, self-links, links out of the crawl, IP-literal hosts: clear results', async () => {
  const text = words(80);
  const lines = [
    { url: 'http://192.0.2.5/a.html', html: `<p>${text}</p><a href="http://192.0.2.5/a.html"></a><a href="http://gone.example/x"></a>` },
    { url: 'http://[2001:db8::5]/a.html', html: `<p>${text}</p><a href="a.html"></a>` },
    { url: 'http://plain.example/b.html', html: `<p>${words(80)}</p>` },
  ];
  writeFileSync(join(dir, 'bad.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
  const r = await run(['signatures', join(dir, 'bad.jsonl'), '-q']);
  assert.is(r.code, 0, r.err);
  const out = records(r.out);
  assert.equal(out.filter((x) => 'a' in x).map((x) => [x.a, x.b]), [['http://192.0.2.5/a.html', 'http://[2001:db8::5]/a.html']]);
  writeFileSync(join(dir, 'one.jsonl'), JSON.stringify(lines[2]) + '\n');
  const one = await run(['signatures', join(dir, 'one.jsonl'), '-q']);
  assert.is(one.code, 0, one.err);
  assert.is(one.out, '');
  const evalOne = await run(['signatures', join(dir, 'one.jsonl'), '--evaluate', '--format', 'json', '-q']);
  assert.is(evalOne.code, 0, evalOne.err);
  assert.ok(JSON.parse(evalOne.out).every((x: { pairs: number; pairPrecision: number }) => x.pairs === 0 && x.pairPrecision === 1));
});

test.after(cleanup);
test.run();
