import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { RULE_DEFAULTS } from '../../src/mirrors/verdict.js';
import { Random } from '../../src/random.js';
import { tempDir } from '../io/fixtures.js';
import { makeWorld, worldJsonl, worldTruth } from './world.js';

/** A version 2 record's verdict as the mirroring test returned it: verdict, reason, deciding alignment, pages compared. */
const verdictOf = (x: Record<string, any>) => {
  const v = x.evidence.verdict;
  if (!v) return undefined;
  const alignment = v.deciding === undefined ? undefined : v.alignments[v.deciding];
  return { ...v, verdict: x.relation, alignment, tested: alignment?.compared ?? 0 };
};


const { dir, cleanup } = tempDir('resemble-mirrors-');
const world = makeWorld({ seed: 11, sitesPerTopic: 4, vhosts: 6, mirrorGroups: 4, aliasGroups: 2, partialMirrors: 2 });
const crawl = join(dir, 'crawl.jsonl');
const truth = join(dir, 'truth.txt');
writeFileSync(crawl, worldJsonl(world));
writeFileSync(truth, worldTruth(world));
const isMirror = (a: string, b: string) => world.truth.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
/** A partial mirror copies some directories of a site: it mirrors that collection of every host serving the site. */
const isPartial = (a: string, b: string) => world.partialOf.get(a) === world.siteOf.get(b) || world.partialOf.get(b) === world.siteOf.get(a);
/** A record's expected `mirror`: mirrors and partial mirrors are, but a copy of fewer than minPages aligned pages (tiny hosts of the world) is a handful of copied pages. */
const expected = (x: Record<string, any>) => {
  if (x.relation === 'copied pages' && x.evidence.verdict.copied.pages < RULE_DEFAULTS.minPages) return false;
  return isMirror(x.a, x.b) || isPartial(x.a, x.b);
};

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(['mirrors', ...argv], { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  const records = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
  return { code, out, err, records };
}

test('by default: hybrid, every printed pair with the mirroring test\'s verdict', async () => {
  const n = world.truth.length;
  const r = await run([crawl, '--top', String(n + 3)]);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, /mirrors \(hybrid ranking\): \d+ hosts compared .*; comparing their pages found \d+ mirrors?, /);
  for (const x of r.records) assert.is(x.mirror, expected(x), `${x.a} ${x.b}`);
  assert.ok(r.records.slice(0, n).every((x) => x.mirror === true));
  // the same as asking for them
  const asked = await run([crawl, '--top', String(n + 3), '--algorithm', 'hybrid', '--verify']);
  assert.is(asked.out, r.out);
  const both = await run([crawl, '--verify', '--no-verify']);
  assert.is(both.code, 2);
});

test('one JSON line per ranked pair (version 2): rank, a, b, score, algorithms, mirror, relation, evidence', async () => {
  const r = await run([crawl, '--top', '6', '--algorithm', 'combined', '--no-verify']);
  assert.is(r.code, 0, r.err);
  assert.is(r.records.length, 6);
  r.records.forEach((x, i) => {
    assert.equal(Object.keys(x), ['rank', 'a', 'b', 'score', 'algorithms', 'mirror', 'relation', 'evidence']);
    assert.is(x.relation, null, 'not tested');
    assert.is(x.rank, i + 1);
    assert.ok(x.a < x.b);
    assert.is(x.mirror, null);
    assert.is(x.score, x.algorithms.length, 'combined scores by votes');
    assert.is(x.evidence.votes, x.algorithms.length);
  });
  for (let i = 1; i < 6; i++) assert.ok(r.records[i].score <= r.records[i - 1].score);
  assert.match(r.err, /mirrors \(combined ranking\): \d+ hosts compared/);
});

test('--algorithm ip4 shows the shared address; --verify gives the mirroring test\'s verdicts', async () => {
  const ip = await run([crawl, '--algorithm', 'ip4', '--top', '3', '--quiet', '--no-verify']);
  assert.is(ip.code, 0);
  assert.is(ip.err, '');
  for (const x of ip.records) assert.equal(Object.keys(x.evidence), ['ip', 'clusterSize']);
  const n = world.truth.length;
  const v = await run([crawl, '--algorithm', 'hybrid', '--verify', '--top', String(n + 3), '--quiet']);
  assert.is(v.code, 0, v.err);
  for (const x of v.records) {
    assert.is(x.mirror, expected(x), `${x.a} ${x.b}: ${JSON.stringify(x.evidence.verdict)}`);
    assert.ok(['mirror', 'not mirror', 'copied pages'].includes(verdictOf(x)!.verdict));
  }
  assert.ok(v.records.slice(0, n).every((x) => x.mirror === true));
  assert.ok(v.records.some((x) => isPartial(x.a, x.b) && x.mirror === true), 'a partial mirror is found and called a mirror');
});

test('--truth and --plot: every algorithm evaluated, Figures 1, 3, 4 written as SVG', async () => {
  const plots = join(dir, 'plots');
  const r = await run([crawl, '--truth', truth, '--plots', plots, '--top', '40']);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, 'evaluation against the truth file');
  for (const f of ['figure1-precision-at-rank.svg', 'figure3-relative-recall-at-rank.svg', 'figure4-precision-recall.svg']) {
    const svg = readFileSync(join(plots, f), 'utf8');
    assert.match(svg, /^<svg/);
    assert.match(svg, 'hybrid');
  }
  const summary = JSON.parse(readFileSync(join(plots, 'evaluation.json'), 'utf8'));
  assert.equal(summary.algorithms.map((a: { algorithm: string }) => a.algorithm), ['ip4', 'ip3', 'hosts', 'paths', 'prefix', 'shingles', 'conn', 'hconn1', 'hconn2', 'combined', 'hybrid']);
  const hybrid = summary.algorithms.find((a: { algorithm: string }) => a.algorithm === 'hybrid');
  assert.is(hybrid.found, world.truth.length);
  for (const x of r.records) assert.is(x.evidence.truth, isMirror(x.a, x.b));
});

test('URL lists with an IP column and a hosts file: bad lines reported with their numbers', async () => {
  const list = join(dir, 'urls.txt');
  const lines = ['http://www.alpha.org/a 10.1.1.1', 'http://alpha.org/a 10.1.1.1', 'not a url', 'http://www.alpha.org/b 10.1.1', 'http://alpha.org/b', 'http://beta.org/a', 'http://beta.org/b'];
  writeFileSync(list, lines.join('\n') + '\n');
  const hostsFile = join(dir, 'hosts');
  writeFileSync(hostsFile, '10.1.1.1 alpha.org\nbeta.org 10.9.9.9 10.1.1.1\ngamma.org 1.2.3.999\n');
  const r = await run([list, '--algorithm', 'ip4', '--min-urls', '2', '--ips', hostsFile]);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, `${list} line 3`);
  assert.match(r.err, `${list}:4`);
  assert.match(r.err, `${hostsFile} line 3`);
  assert.equal(r.records.map((x) => [x.a, x.b]), [['alpha.org', 'beta.org'], ['alpha.org', 'www.alpha.org'], ['beta.org', 'www.alpha.org']]);
  const hybrid = await run([list, '--algorithm', 'hybrid', '--min-urls', '2', '--quiet']);
  assert.is(hybrid.code, 1);
  assert.match(hybrid.err, 'hybrid needs page content');
});

test('bad arguments exit 2; too few hosts exit 1', async () => {
  for (const argv of [[crawl, '--algorithm', 'mirrorz'], [crawl, '--top', '-1'], [crawl, '--min-urls', '0'], [crawl, '--bogus']]) {
    const r = await run(argv);
    assert.is(r.code, 2, argv.join(' '));
  }
  const missing = await run([crawl, '--ips', join(dir, 'no-such-file')]);
  assert.is(missing.code, 1);
  assert.match(missing.err, 'cannot read the --ips file');
  const few = await run([crawl, '--min-urls', '100000', '--quiet']);
  assert.is(few.code, 1);
  assert.match(few.err, 'expected at least two hosts');
  assert.ok(!existsSync(join(dir, 'plots-none')));
});

test('bad input: no links, a one-page host, links out of the crawl, self-links, a cycle of mirrors, IP literals, no roots', async () => {
  const rng = Random.stream(12, 'bad-input');
  const text = () => Array.from({ length: 80 }, () => `w${rng.int(500)}`).join(' ');
  const manual = Array.from({ length: 12 }, (_, i) => [`ch${i % 3}/p${i}.html`, text()] as const);
  const lines: string[] = [];
  const page = (url: string, body: string, links: string[] = []) =>
    lines.push(JSON.stringify({ url, html: `<html><body><p>${body}</p>${links.map((l) => `<a href="${l}">x</a>`).join('')}</body></html>` }));
  // A cycle of mirrors under three prefixes, one of them an IPv4 literal, one an IPv6 literal; no root pages.
  for (const [h, prefix] of [['a.example', 'docs/'], ['192.0.2.9', 'mirror/docs/'], ['[2001:db8::9]', 'pub/']]) {
    for (const [p, body] of manual) page(`http://${h}/${prefix}${p}`, body, [`http://${h}/${prefix}${p}`, 'http://elsewhere.example/x.html']);
  }
  // Unrelated hosts: one with no links at all, one with a single page.
  for (let i = 0; i < 6; i++) page(`http://plain.example/n${i}.html`, text());
  page('http://one.example/only.html', manual[0][1]);
  const file = join(dir, 'bad.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  const r = await run([file, '--algorithm', 'hybrid', '--verify', '--min-urls', '1', '--top', '0']);
  assert.is(r.code, 0, r.err);
  assert.not.match(r.err, /at .*\.ts:/);
  const verdict = (a: string, b: string) => {
    const rec = r.records.find((x) => (x.a === a && x.b === b) || (x.a === b && x.b === a));
    return rec && verdictOf(rec);
  };
  for (const [a, b] of [['a.example', '192.0.2.9'], ['a.example', '[2001:db8::9]'], ['192.0.2.9', '[2001:db8::9]']]) {
    const v = verdict(a, b);
    assert.is(v?.verdict, 'mirror', `${a} ${b}: ${JSON.stringify(v)}`);
    assert.ok(v.alignment.common === 12 && v.tested === 12);
  }
  const v = verdict('a.example', '192.0.2.9');
  assert.equal([v.alignment.prefixA, v.alignment.prefixB].sort(), ['/docs/', '/mirror/docs/']);
  for (const x of r.records) {
    // a one-page host holding a copy of one page of a manual: copied pages (1), not a mirror; of an unrelated host: undetermined
    if (x.a === 'one.example' || x.b === 'one.example') {
      const other = x.a === 'one.example' ? x.b : x.a;
      if (other === 'plain.example') assert.is(x.mirror, null, `${x.a} ${x.b}`);
      else {
        assert.is(x.relation, 'copied pages', `${x.a} ${x.b}: ${JSON.stringify(x.evidence.verdict)}`);
        assert.is(x.mirror, false);
        assert.is(x.evidence.verdict.copied.pages, 1);
        assert.match(x.evidence.verdict.reason, /^copied pages: 1 /);
      }
    }
    if (x.a === 'plain.example' || x.b === 'plain.example') assert.is(x.mirror, false);
  }
  assert.not.ok(r.records.some((x) => x.a === 'elsewhere.example' || x.b === 'elsewhere.example'), 'link targets are not hosts unless --link-urls');
  // No links and no content at all: clear results, not a crash.
  const urls = join(dir, 'bare.txt');
  writeFileSync(urls, 'http://p.example/a\nhttp://q.example/a\n');
  const bare = await run([urls, '--algorithm', 'paths', '--min-urls', '1', '--quiet']);
  assert.is(bare.code, 0, bare.err);
  const noContent = await run([urls, '--verify', '--min-urls', '1', '--quiet']);
  assert.is(noContent.code, 1);
  assert.match(noContent.err, '--verify needs page content');
  // by default an input of URLs only is ranked by combined, without the mirroring test
  const byDefault = await run([urls, '--min-urls', '1']);
  assert.is(byDefault.code, 0, byDefault.err);
  assert.match(byDefault.err, /mirrors \(combined ranking\): 2 hosts compared/);
  assert.ok(byDefault.records.every((x) => x.mirror === null));
});

test.after(cleanup);

test('the sample: mirror exactly for the pairs sample/truth.json lists, full for the whole-host mirrors', async () => {
  const sample = join(process.cwd(), 'sample');
  const truth = JSON.parse(readFileSync(join(sample, 'truth.json'), 'utf8')) as { mirrors: string[][]; partialMirrors: string[][] };
  assert.is(truth.mirrors.length, 3);
  assert.is(truth.partialMirrors.length, 12);
  // www.sqlite.example.org answers every path with the origin's bytes: a host alias, printed as
  // such (relation alias, never sampled); its pairs with other hosts are the origin's pairs
  const host = (h: string) => (h === 'www.sqlite.example.org' ? 'sqlite.example.org' : h);
  const key = (a: string, b: string) => [host(a), host(b)].sort().join(' ');
  const full = new Set(truth.mirrors.filter(([a, b]) => host(a) !== host(b)).map(([a, b]) => key(a, b))), partial = new Set(truth.partialMirrors.map(([a, b]) => key(a, b)));
  assert.is(full.size, 1);
  assert.is(partial.size, 9);
  const r = await run([sample, '--ips', join(sample, 'hosts.txt'), '--top', '0', '--quiet']);
  assert.is(r.code, 0, r.err);
  const aliases = r.records.filter((x) => x.relation === 'alias');
  assert.equal(aliases.map((x) => [x.a, x.b, x.mirror, x.evidence.alias.rule, x.evidence.alias.ip]), [['sqlite.example.org', 'www.sqlite.example.org', true, 'www', undefined]]);
  assert.ok(aliases[0].evidence.alias.pages >= 50 && aliases[0].evidence.alias.sameBytes === aliases[0].evidence.alias.pages);
  const said = r.records.filter((x) => x.mirror === true && x.relation !== 'alias');
  assert.equal(new Set(said.map((x) => key(x.a, x.b))), new Set([...full, ...partial]));
  // a session/ copy is full only between two hosts that are nearly nothing else (docs.example.com and archive.example.com)
  for (const x of said) {
    if (full.has(key(x.a, x.b))) assert.is(x.extent, 'full', `${x.a} ${x.b}: ${x.evidence.verdict.reason}`);
    else assert.is(x.extent, key(x.a, x.b) === key('archive.example.com', 'docs.example.com') ? 'full' : 'partial', `${x.a} ${x.b}: ${x.evidence.verdict.reason}`);
  }
  for (const x of r.records.filter((y) => y.mirror !== true)) assert.not.ok('extent' in x);
});

test.run();
