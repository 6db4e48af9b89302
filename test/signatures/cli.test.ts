import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { tempDir } from '../io/fixtures.js';

const { dir, cleanup } = tempDir();

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) } });
  return { code, out, err };
}

let seed = 77;
const rnd = () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 2 ** 32; };
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

type Group = { group: number; size: number; members: Array<{ url: string; through: string | null; rpDistance: number; hmDistance: number }> };
const together = (groups: Group[], a: string, b: string) => groups.some((g) => g.members.some((m) => m.url === a) && g.members.some((m) => m.url === b));

test('signatures: the mirror collides on both signatures, the forum views only on RP', async () => {
  const both = await run(['signatures', join(dir, 'crawl.jsonl'), '--C', '0.02', '--D', '0.01', '-q']);
  assert.is(both.code, 0, both.err);
  const groups: Group[] = both.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(together(groups, 'http://docs.example/list/index.html', 'http://mirror.example/list/index.html'));
  for (let i = 0; i < 8; i++) assert.ok(together(groups, `http://docs.example/list/m${i}.html`, `http://mirror.example/list/m${i}.html`));
  assert.not.ok(together(groups, 'http://forum.example/by-date.html', 'http://forum.example/by-thread.html'));
  // Evidence: each member names the page it collides with and both distances, within the tolerances.
  for (const g of groups) {
    assert.is(g.size, g.members.length);
    assert.is(g.members[0].through, null);
    for (const m of g.members.slice(1)) assert.ok(m.rpDistance < 0.01 && m.hmDistance < 0.02 && g.members.some((x) => x.url === m.through));
  }
  const rpOnly = await run(['signatures', join(dir, 'crawl.jsonl'), '--C', '2', '--D', '0.01', '-q']);
  const rpGroups: Group[] = rpOnly.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(together(rpGroups, 'http://forum.example/by-date.html', 'http://forum.example/by-thread.html'));
});

test('signatures --evaluate: precision–recall rows per (C, D), a plot, and flags checked', async () => {
  const plots = join(dir, 'plots');
  const r = await run(['signatures', join(dir, 'crawl.jsonl'), '--evaluate', '--sweep-C', '0.02,2', '--sweep-D', '0.01', '--rp-only-D', '0.01,0.05', '--plots', plots, '--format', 'json', '-q']);
  assert.is(r.code, 0, r.err);
  const rows = JSON.parse(r.out);
  assert.equal(rows.map((x: { curve: string; C: number; D: number }) => [x.curve, x.C, x.D]), [['D = 0.01', 0.02, 0.01], ['D = 0.01', 2, 0.01], ['RP only', 2, 0.01], ['RP only', 2, 0.05]]);
  // Replicated pages: the forum views (same text) and the mirrored pages, 2 + 18; all are found with RP alone.
  assert.is(rows[2].recall, 1);
  assert.is(rows[2].precision, 1);
  assert.ok(rows[0].recall < 1);
  assert.match(readFileSync(join(plots, 'precision-recall.svg'), 'utf8'), /^<svg/);
  writeFileSync(join(dir, 'ref.txt'), '# forum views\nhttp://forum.example/by-date.html\nhttp://forum.example/by-thread.html\n');
  const ref = await run(['signatures', join(dir, 'crawl.jsonl'), '--evaluate', '--reference', join(dir, 'ref.txt'), '--sweep-C', '0.02', '--sweep-D', '0.01', '--rp-only-D', '0.01', '--format', 'json', '-q']);
  const refRows = JSON.parse(ref.out);
  assert.is(refRows[0].recall, 0); // HM separates the two views
  assert.is(refRows[1].recall, 1); // RP alone finds them
  assert.is((await run(['signatures', join(dir, 'crawl.jsonl'), '--C', '0'])).code, 2);
  assert.is((await run(['signatures', join(dir, 'crawl.jsonl'), '--k', '0'])).code, 2);
  assert.is((await run(['signatures', join(dir, 'crawl.jsonl'), '--plots', plots])).code, 2);
});

test.after(cleanup);
test.run();
