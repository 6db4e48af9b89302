// Integrity of the bundled sample crawl: layout, size budget, and that truth.json describes the
// files as they are (identical bytes, near-duplicates sharing lines, collection links resolving).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SAMPLE = fileURLToPath(new URL('../../sample/', import.meta.url));
const BUDGET = 4 * 1024 * 1024;

interface Collection {
  hosts: string[];
  pages: number;
  roots: Record<string, string>;
  identicalCopies: string[];
  lagging: Record<string, string[]>;
  missing: Record<string, string[]>;
}
interface Truth {
  mirrors: [string, string][];
  collections: Collection[];
  nearDuplicates: string[][];
  identical: string[][];
  charsetTwins: [string, string][];
  charsets: Record<string, string>;
  nonEnglish: string[];
  unique: string[];
}

const truth = JSON.parse(readFileSync(join(SAMPLE, 'truth.json'), 'utf8')) as Truth;

/** Every file under a folder, as paths relative to it with forward slashes. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p).map((f) => `${name}/${f}`));
    else out.push(name);
  }
  return out;
}
const hostDirs = readdirSync(SAMPLE).filter((f) => statSync(join(SAMPLE, f)).isDirectory()).sort();
const crawlFiles = hostDirs.flatMap((h) => walk(join(SAMPLE, h)).map((f) => `${h}/${f}`));

/** The file a wget-mirror URL is stored in. */
function fileOf(url: string): string {
  const u = new URL(url);
  const path = decodeURIComponent(u.pathname).replace(/\/$/, '/index.html');
  return join(SAMPLE, u.host, ...path.split('/').filter(Boolean));
}
const bytesOf = (url: string): Buffer => readFileSync(fileOf(url));
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Jaccard of the sets of non-blank trimmed lines of two pages. */
function lineJaccard(a: Buffer, b: Buffer): number {
  const lines = (x: Buffer) => new Set(x.toString('latin1').split('\n').map((l) => l.trim()).filter(Boolean));
  const la = lines(a), lb = lines(b);
  let common = 0;
  for (const l of la) if (lb.has(l)) common++;
  return common / (la.size + lb.size - common);
}

const allTruthUrls = (): string[] => [
  ...truth.nearDuplicates.flat(), ...truth.identical.flat(), ...truth.charsetTwins.flat(),
  ...Object.keys(truth.charsets), ...truth.nonEnglish, ...truth.unique,
];

test('sample exists, holds a few hundred pages on several hosts, within the size budget', () => {
  const total = crawlFiles.reduce((s, f) => s + statSync(join(SAMPLE, f)).size, 0);
  const pages = crawlFiles.filter((f) => f.endsWith('.html')).length;
  assert.ok(total > 500_000, `sample too small: ${total} bytes`);
  assert.ok(total <= BUDGET, `sample is ${total} bytes, over the ${BUDGET} budget`);
  assert.ok(pages >= 100 && pages <= 500, `${pages} pages`);
  assert.ok(hostDirs.length >= 6, `${hostDirs.length} hosts`);
  assert.ok(existsSync(join(SAMPLE, 'README.md')));
  assert.match(readFileSync(join(SAMPLE, 'README.md'), 'utf8'), /public domain/);
});

test('host names are reserved and hosts.txt lists every host with a documentation address', () => {
  const lines = readFileSync(join(SAMPLE, 'hosts.txt'), 'utf8').trim().split('\n');
  const listed = lines.map((l) => l.split(/\s+/));
  for (const [host, ip, ...rest] of listed) {
    assert.is(rest.length, 0, `one host and one ip per line: ${host}`);
    assert.ok(/(^|\.)example\.(org|com|net)$|\.test$/.test(host), `reserved name: ${host}`);
    assert.ok(/^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d+$|^2001:db8:/.test(ip), `documentation address: ${ip}`);
  }
  assert.equal(listed.map(([h]) => h).sort(), hostDirs);
  const ipOf = new Map(listed.map(([h, ip]) => [h, ip]));
  for (const [a, b] of truth.mirrors) {
    const prefix = (h: string) => ipOf.get(h)!.split('.').slice(0, 3).join('.');
    assert.is(prefix(a), prefix(b), `mirrors ${a} and ${b} share a /24`);
  }
});

test('every host and URL named in truth.json exists', () => {
  const hosts = new Set([...truth.mirrors.flat(), ...truth.collections.flatMap((c) => c.hosts)]);
  for (const h of hosts) assert.ok(hostDirs.includes(h), `host folder ${h}`);
  const urls = allTruthUrls();
  assert.ok(urls.length > 100);
  for (const u of urls) assert.ok(existsSync(fileOf(u)), `file for ${u}`);
  for (const c of truth.collections) {
    for (const root of Object.values(c.roots)) assert.ok(statSync(fileOf(root).replace(/index\.html$/, '')).isDirectory(), root);
  }
});

test('identical sets are byte-identical, distinct from one another, and complete', () => {
  const seen = new Map<string, number>();
  truth.identical.forEach((group, i) => {
    assert.ok(group.length >= 2);
    const hashes = new Set(group.map((u) => sha(bytesOf(u))));
    assert.is(hashes.size, 1, `group ${i} (${group[0]}) is not byte-identical`);
    const h = [...hashes][0];
    assert.not.ok(seen.has(h), `groups ${seen.get(h)} and ${i} hold the same bytes`);
    seen.set(h, i);
  });
  // Brute force over the crawl: every repeated content is one of the listed groups, whole.
  const byHash = new Map<string, string[]>();
  for (const f of crawlFiles) {
    const h = sha(readFileSync(join(SAMPLE, f)));
    byHash.set(h, [...(byHash.get(h) ?? []), `http://${f}`]);
  }
  const repeated = [...byHash.values()].filter((g) => g.length > 1);
  assert.is(repeated.length, truth.identical.length);
  for (const g of repeated) assert.ok(truth.identical.some((t) => t.length === g.length && g.every((u) => t.includes(u))), g[0]);
});

test('near-duplicate sets are not all identical and are connected by pages sharing most lines', () => {
  assert.ok(truth.nearDuplicates.length >= 5);
  for (const group of truth.nearDuplicates) {
    const distinct = [...new Map(group.map((u) => [sha(bytesOf(u)), bytesOf(u)])).values()];
    assert.ok(distinct.length >= 2, `${group[0]}: all byte-identical`);
    // Union of pairs with line Jaccard >= 0.5 must connect every version (as a clusterer would).
    const reached = new Set([0]);
    for (let grew = true; grew;) {
      grew = false;
      for (let i = 0; i < distinct.length; i++) {
        if (reached.has(i)) continue;
        if ([...reached].some((j) => lineJaccard(distinct[i], distinct[j]) >= 0.5)) {
          reached.add(i);
          grew = true;
        }
      }
    }
    assert.is(reached.size, distinct.length, `${group[0]}: versions not connected at line Jaccard 0.5`);
  }
});

test('unique pages have no byte-identical copy', () => {
  const counts = new Map<string, number>();
  for (const f of crawlFiles) {
    const h = sha(readFileSync(join(SAMPLE, f)));
    counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  for (const u of truth.unique) assert.is(counts.get(sha(bytesOf(u))), 1, u);
  const clustered = new Set([...truth.nearDuplicates.flat(), ...truth.identical.flat()]);
  for (const u of truth.unique) assert.not.ok(clustered.has(u), `${u} is unique but clustered`);
});

test('collection copies: page counts, identical copies, and links resolving within each host', () => {
  for (const c of truth.collections) {
    const pagesOf = (host: string) => walk(fileOf(c.roots[host]).replace(/index\.html$/, '')).filter((f) => f.endsWith('.html'));
    const first = c.hosts[0];
    assert.is(pagesOf(first).length, c.pages);
    for (const h of c.hosts) {
      const missing = c.missing[h] ?? [];
      assert.is(pagesOf(h).length, c.pages - missing.length, h);
      for (const m of missing) assert.not.ok(pagesOf(h).includes(m), `${h} should miss ${m}`);
    }
    for (const h of c.identicalCopies) {
      for (const p of pagesOf(h)) assert.ok(bytesOf(c.roots[h] + p).equals(bytesOf(c.roots[first] + p)), `${h} ${p}`);
    }
    for (const [h, edited] of Object.entries(c.lagging)) {
      for (const p of pagesOf(h)) {
        const same = bytesOf(c.roots[h] + p).equals(bytesOf(c.roots[first] + p));
        assert.is(same, !edited.includes(p), `${h} ${p} edited: ${edited.includes(p)}`);
      }
    }
    let links = 0;
    for (const h of c.hosts) {
      const missing = new Set((c.missing[h] ?? []).map((p) => c.roots[h] + p));
      for (const p of pagesOf(h)) {
        const page = c.roots[h] + p;
        const html = bytesOf(page).toString('utf8');
        for (const m of html.matchAll(/href\s*=\s*["']([^"'#]+)/gi)) {
          const target = new URL(m[1], page);
          if (!target.href.startsWith(c.roots[h]) || !target.pathname.endsWith('.html')) continue;
          links++;
          if (missing.has(target.href)) continue;
          assert.ok(existsSync(fileOf(target.href)), `${page} links to ${target.href}, which is not in the crawl`);
        }
      }
    }
    assert.ok(links > c.pages * c.hosts.length, `only ${links} links within the collection copies`);
  }
});

test('mirrored hosts share nearly all of their paths', () => {
  for (const [a, b] of truth.mirrors) {
    const pa = new Set(walk(join(SAMPLE, a))), pb = new Set(walk(join(SAMPLE, b)));
    let common = 0;
    for (const p of pa) if (pb.has(p)) common++;
    assert.ok(common / Math.max(pa.size, pb.size) >= 0.95, `${a} ~ ${b}: ${common} of ${pa.size}/${pb.size}`);
  }
});

test('single-byte pages are not UTF-8, declare their charset, and decode to their twin', () => {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for (const [u, charset] of Object.entries(truth.charsets)) {
    const b = bytesOf(u);
    assert.throws(() => utf8.decode(b), undefined, `${u} decodes as UTF-8`);
    assert.match(new TextDecoder(charset).decode(b), new RegExp(`charset=${charset}`, 'i'));
  }
  for (const [a, b] of truth.charsetTwins) {
    const norm = (u: string) => {
      const raw = bytesOf(u);
      const charset = truth.charsets[u] ?? 'utf-8';
      return new TextDecoder(charset).decode(raw).replace(/(charset=|encoding=")[\w-]+/gi, '$1X');
    };
    assert.ok(!bytesOf(a).equals(bytesOf(b)));
    assert.is(norm(a), norm(b));
  }
  for (const u of truth.nonEnglish) assert.match(new TextDecoder(truth.charsets[u] ?? 'utf-8').decode(bytesOf(u)), /[äöüß]/);
});

test('files follow the wget layout: no query strings or characters unsafe on common file systems', () => {
  for (const f of crawlFiles) {
    assert.not.match(f, /[?*:<>|"\\]/, f);
    assert.ok(relative(SAMPLE, join(SAMPLE, f)).split(sep).length >= 2, f);
  }
});

test.run();
