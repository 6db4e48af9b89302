// URL rewrite rules learnt from duplicate clusters (collections/url-rules): the learner against a
// slow obvious reference on a generated crawl, bad URLs reported and skipped, the versioned file,
// and findCollections({ rules }) on pages in memory.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { UrlRuleLearner, UrlRules, type UrlRule } from '../../src/collections/url-rules/index.js';
import { findCollections } from '../../src/collections/entry.js';
import { ResembleError } from '../../src/errors.js';
import { init } from '../../src/wasm/loader.js';

/** A generated crawl: its URLs in crawl order and its duplicate clusters (lists of URLs). */
function generatedCrawl(seed: number): { urls: string[]; clusters: string[][]; identical: string[][] } {
  let s = seed >>> 0;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const urls: string[] = [];
  const clusters: string[][] = [];
  // the pages of identical text: every cluster but for a lagging mirror's changed pages
  const identical: string[][] = [];
  const hex = () => Array.from({ length: 32 }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
  for (let i = 0; i < 60; i++) {
    const page = `http://docs.example.org/guide/ch${i}.html`;
    const group = [page];
    // an exact mirror under another prefix, most pages
    if (rand() < 0.8) group.push(`http://mirror.example.net/pub/docs/guide/ch${i}.html`);
    if (rand() < 0.2) group.push(`${page}?sid=${hex()}`);
    if (rand() < 0.2) group.push(`${page}?utm_source=news&utm_medium=email`);
    if (rand() < 0.15) group.push(`https://docs.example.org/guide/ch${i}.html`);
    if (rand() < 0.15) group.push(`http://www.docs.example.org/guide/ch${i}.html`);
    if (rand() < 0.1) group.push(`http://docs.example.org/guide/ch${i}.html;jsessionid=${hex().toUpperCase()}`);
    // a lagging mirror of the first chapters, the guide's folder as its root: near copies, one in four changed
    if (i < 24) group.push(`http://lag.example.net/g/ch${i}.html`);
    // and a near mirror of others: every page a little changed
    const near = i >= 30 && i < 42 ? `http://near.example.com/guide/ch${i}.html` : undefined;
    urls.push(...group, ...(near ? [near] : []));
    clusters.push(near ? [...group, near] : group);
    // (but for two of its pages)
    identical.push(i < 24 && i % 4 === 1 ? group.slice(0, -1) : i >= 40 && near ? [...group, near] : group);
  }
  for (let i = 0; i < 12; i++) {
    const dir = `http://docs.example.org/topics/t${i}/`;
    const group = [dir];
    if (rand() < 0.7) group.push(`${dir}index.html`);
    urls.push(...group);
    clusters.push(group);
    identical.push(group);
  }
  // `?page=N` names distinct pages: one pair of them duplicates, so `page` is a candidate that must fail
  for (let i = 0; i < 10; i++) urls.push(`http://docs.example.org/list?page=${i}`);
  clusters.push(['http://docs.example.org/list?page=0', 'http://docs.example.org/list?page=1']);
  identical.push(['http://docs.example.org/list?page=0', 'http://docs.example.org/list?page=1']);
  // a lagging copy: mirror prefix whose pages differ from the origin's (not duplicates)
  for (let i = 0; i < 8; i++) urls.push(`http://old.example.com/v1/ch${i}.html`);
  clusters.push([`http://old.example.com/v1/ch0.html`, `http://docs.example.org/guide/ch0.html`]);
  identical.push([`http://old.example.com/v1/ch0.html`, `http://docs.example.org/guide/ch0.html`]);
  // a mirror whose pages are copies except those of one folder (a `keep` exception)
  for (let i = 0; i < 10; i++) {
    for (const dir of ['api', 'news']) {
      const page = `http://lib.example.org/doc/${dir}/p${i}.html`, copy = `http://lib-mirror.example.com/doc/${dir}/p${i}.html`;
      urls.push(page, copy);
      if (dir === 'api') { clusters.push([page, copy]); identical.push([page, copy]); }
    }
  }
  urls.push('http://lib.example.org/doc/');
  // crawl order shuffled by the generator's own draws
  for (let i = urls.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [urls[i], urls[j]] = [urls[j], urls[i]]; }
  return { urls, clusters, identical };
}

/**
 * The reference: the same definitions written the slow obvious way, with WHATWG URL objects, every
 * pair of crawled URLs compared, and each rule applied by its own small function.
 */
function referenceRules(urls: readonly string[], given: readonly string[][], minSupport: number, minPrecision: number, identical?: readonly string[][]): Array<Omit<UrlRule, 'tested' | 'precision'> & { tested: number; precision: number }> {
  type R = { kind: UrlRule['kind']; name?: string; from?: string; to?: string; pages?: string[]; except?: string[]; support: number; tested?: number; precision?: number };
  // identical groups join clusters too (here each lies inside a given cluster: pairs are counted in those)
  const clusters = given;
  const norm = (u: string) => new URL(u).href;
  const all = [...new Set(urls.map(norm))];
  // clusters that share a URL are one: relabel until no URL has two labels
  const clusterOf = new Map<string, number>();
  all.forEach((u, i) => clusterOf.set(u, i));
  const relabel = (of: Map<string, number>, groups: readonly string[][]) => {
    for (let changed = true; changed;) {
      changed = false;
      for (const c of groups) {
        const low = Math.min(...c.map((u) => of.get(norm(u))!));
        for (const [u, l] of of) if (l !== low && c.some((v) => of.get(norm(v)) === l)) { of.set(u, low); changed = true; }
      }
    }
  };
  relabel(clusterOf, [...clusters, ...(identical ?? [])]);
  // identical text: the identical groups, or the clusters when none are given
  const sameOf = new Map(all.map((u, i) => [u, i]));
  relabel(sameOf, identical ?? clusters);
  const split = (u: string) => {
    const x = new URL(u);
    const segs = x.pathname.slice(1).split('/');
    return { scheme: x.protocol.slice(0, -1), host: x.host, segs: segs.map((s) => s.split(';')[0]), pp: segs.flatMap((s) => s.split(';').slice(1)), q: x.search ? x.search.slice(1).split('&') : [] };
  };
  const name = (p: string) => decodeURIComponent(p.split('=')[0]);
  const symDiff = (a: string[], b: string[]) => {
    const out = new Set<string>();
    const left = [...b];
    for (const x of a) { const i = left.indexOf(x); if (i >= 0) left.splice(i, 1); else out.add(x); }
    const right = [...a];
    for (const x of b) { const i = right.indexOf(x); if (i >= 0) right.splice(i, 1); else out.add(x); }
    return out;
  };
  const key = (r: Omit<R, 'support'>) => JSON.stringify([r.kind, r.name ?? '', r.from ?? '', r.to ?? '']);
  const cand = new Map<string, R>();
  const pairsOf = (c: string[]) => { const out: Array<[string, string]> = []; const d = [...new Set(c.map(norm))]; for (let i = 0; i < d.length; i++) for (let j = i + 1; j < d.length; j++) out.push([d[i], d[j]]); return out; };
  for (const c of clusters) {
    for (const [u, v] of pairsOf(c)) {
      const a = split(u), b = split(v);
      if (a.segs.length !== b.segs.length || a.segs.slice(0, -1).join('/') !== b.segs.slice(0, -1).join('/')) continue;
      const la = a.segs[a.segs.length - 1], lb = b.segs[b.segs.length - 1];
      const found: Array<Omit<R, 'support'>> = [];
      if (la !== lb) { if (la !== '' && lb !== '') continue; found.push({ kind: 'index', name: la || lb }); }
      for (const n of new Set([...symDiff(a.pp, b.pp)].map((p) => name(p).toLowerCase()))) found.push({ kind: 'path-param', name: n });
      for (const n of new Set([...symDiff(a.q, b.q)].map(name))) found.push({ kind: 'param', name: n });
      if (a.scheme !== b.scheme) found.push({ kind: 'https' });
      if (a.host !== b.host) { if (a.host.replace(/^www\./, '') !== b.host.replace(/^www\./, '')) continue; found.push({ kind: 'www' }); }
      for (const f of found) { const k = key(f); const had = cand.get(k); if (had) had.support++; else cand.set(k, { ...f, support: 1 }); }
    }
  }
  const applyAll = (u: string, rules: R[]) => {
    let x = split(u);
    const fired: string[] = [];
    const has = (k: string, n?: string) => rules.find((r) => r.kind === k && (n === undefined || r.name === n));
    x = { ...x, pp: x.pp.filter((p) => { const r = has('path-param', name(p).toLowerCase()); if (r) fired.push(key(r)); return !r; }) };
    x = { ...x, q: x.q.filter((p) => { const r = has('param', name(p)); if (r) fired.push(key(r)); return !r; }) };
    const ix = has('index', x.segs[x.segs.length - 1]);
    if (ix && x.pp.length === 0) { x = { ...x, segs: [...x.segs.slice(0, -1), ''] }; fired.push(key(ix)); }
    const hs = has('https');
    if (hs && x.scheme === 'https') { x = { ...x, scheme: 'http' }; fired.push(key(hs)); }
    const w = has('www');
    if (w && x.host.startsWith('www.') && x.host.split('.').length > 2) { x = { ...x, host: x.host.slice(4) }; fired.push(key(w)); }
    let spelled = `${x.scheme}://${x.host}/${x.segs.join('/')}${x.pp.length ? ';' + x.pp.join(';') : ''}${x.q.length ? '?' + x.q.join('&') : ''}`;
    // the longest prefix rule holding the URL rewrites it, unless a keep rule at least as long holds
    // it and does not list it (only the longest keep rule is asked)
    const holding = (k: string) => rules.filter((r) => r.kind === k && spelled.startsWith(r.from!)).sort((p, q) => q.from!.length - p.from!.length);
    const keepR = holding('keep')[0], prefixR = holding('prefix')[0];
    const kept = keepR !== undefined && !(keepR.pages ?? []).includes(spelled.slice(keepR.from!.length)) && (prefixR === undefined || keepR.from!.length >= prefixR.from!.length);
    if (prefixR !== undefined && !kept && !(prefixR.except ?? []).includes(spelled.slice(prefixR.from!.length))) { spelled = prefixR.to! + spelled.slice(prefixR.from!.length); fired.push(key(prefixR)); }
    return { spelled, fired };
  };
  const test = (rules: R[]) => {
    for (;;) {
      const tested = new Map<string, number>(), correct = new Map<string, number>();
      const done = all.map((u) => applyAll(u, rules));
      for (let i = 0; i < all.length; i++) {
        for (let j = i + 1; j < all.length; j++) {
          if (done[i].spelled !== done[j].spelled) continue;
          const right = clusterOf.get(all[i]) === clusterOf.get(all[j]) ? 1 : 0;
          const diff = [...done[i].fired.filter((f) => !done[j].fired.includes(f)), ...done[j].fired.filter((f) => !done[i].fired.includes(f))];
          for (const f of diff) { tested.set(f, (tested.get(f) ?? 0) + 1); correct.set(f, (correct.get(f) ?? 0) + right); }
        }
      }
      const score = (r: R) => { const t = tested.get(key(r)) ?? 0; return t === 0 ? -1 : (correct.get(key(r)) ?? 0) / t; };
      const failing = rules.filter((r) => r.kind !== 'keep' && (score(r) < minPrecision || (tested.get(key(r)) ?? 0) === 0));
      if (failing.length === 0) return rules.map((r) => (r.kind === 'keep' ? { ...r, tested: r.tested!, precision: r.precision! } : { ...r, tested: tested.get(key(r))!, precision: Math.round(score(r) * 1e4) / 1e4 }));
      let worst = failing[0];
      for (const r of failing) if (score(r) < score(worst) || (score(r) === score(worst) && (tested.get(key(r)) ?? 0) > (tested.get(key(worst)) ?? 0))) worst = r;
      const others = rules.filter((r) => r !== worst && r.kind === 'prefix');
      rules = rules.filter((r) => r !== worst && !(worst.kind === 'prefix' && r.kind === 'keep' && r.from!.startsWith(worst.from!) && !others.some((o) => r.from!.startsWith(o.from!))));
    }
  };
  const plain = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const order = ['path-param', 'param', 'index', 'https', 'www', 'prefix', 'keep'];
  const sortRules = (rs: R[]) => rs.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || plain(a.name ?? '', b.name ?? '') || plain(a.from ?? '', b.from ?? ''));
  let rules = test(sortRules([...cand.values()].filter((r) => r.support >= minSupport)));
  // prefixes: pairs still spelled apart, ending in the same segments
  const spelledOf = new Map(all.map((u) => [u, applyAll(u, rules).spelled]));
  // a URL's text is its page's when no parameter was dropped from it
  const plainOf = new Map(all.map((u) => [u, applyAll(u, rules).fired.every((f) => !f.startsWith('["param"') && !f.startsWith('["path-param"'))]));
  // identical: some plain URL spelled as one has the text of some plain URL spelled as the other; with none on a side, as the cluster says
  const identicalSpellings = (a: string, b: string, right: boolean) => {
    const xs = all.filter((u) => plainOf.get(u) && spelledOf.get(u) === a), ys = all.filter((u) => plainOf.get(u) && spelledOf.get(u) === b);
    if (xs.length === 0 || ys.length === 0) return right;
    return xs.some((x) => ys.some((y) => sameOf.get(x) === sameOf.get(y)));
  };
  const pairs = new Map<string, { a: string; b: string; support: number }>();
  for (const c of clusters) {
    for (const [u, v] of pairsOf(c)) {
      const x = spelledOf.get(u)!, y = spelledOf.get(v)!;
      if (x === y) continue;
      const qx = x.includes('?') ? x.slice(x.indexOf('?')) : '', qy = y.includes('?') ? y.slice(y.indexOf('?')) : '';
      if (qx !== qy) continue;
      const sx = x.slice(0, x.length - qx.length).split('/'), sy = y.slice(0, y.length - qy.length).split('/');
      let k = 0;
      while (k < sx.length - 3 && k < sy.length - 3 && sx[sx.length - 1 - k] === sy[sy.length - 1 - k]) k++;
      if (k === 0) continue;
      const pa = sx.slice(0, sx.length - k).join('/') + '/', pb = sy.slice(0, sy.length - k).join('/') + '/';
      if (pa.startsWith(pb) || pb.startsWith(pa)) continue;
      const [lo, hi] = pa < pb ? [pa, pb] : [pb, pa];
      const had = pairs.get(lo + ' ' + hi);
      if (had) had.support++; else pairs.set(lo + ' ' + hi, { a: lo, b: hi, support: 1 });
    }
  }
  const spelledAll = [...spelledOf.values()];
  const under = (p: string) => spelledAll.filter((s) => s.replace(/\?.*$/, '').startsWith(p)).length;
  const best = new Map<string, { to: string; support: number; except: string[]; keep: R[] }>();
  for (const p of [...pairs.values()].filter((p) => p.support >= minSupport)) {
    const [from, to] = under(p.a) > under(p.b) || (under(p.a) === under(p.b) && p.a < p.b) ? [p.b, p.a] : [p.a, p.b];
    const tests: Array<{ s: string; right: boolean; same: boolean }> = [];
    for (const u of all) {
      const s = spelledOf.get(u)!;
      if (!s.startsWith(from)) continue;
      const target = all.find((v) => spelledOf.get(v) === to + s.slice(from.length));
      if (target === undefined) continue;
      const right = clusterOf.get(u) === clusterOf.get(target);
      tests.push({ s, right, same: identicalSpellings(s, spelledOf.get(target)!, right) });
    }
    // sub-folders where a page was no duplicate do not count against the rule
    const folder = (s: string) => s.replace(/\?.*$/, '').replace(/[^/]*$/, '');
    const apart = [...new Set(tests.filter((t) => !t.right).map((t) => folder(t.s)))].filter((k) => k !== from);
    const left = tests.filter((t) => !apart.some((k) => t.s.startsWith(k)));
    if (left.length === 0 || left.filter((t) => t.right).length < minPrecision * left.length) continue;
    const had = best.get(from);
    if (had && !(p.support > had.support || (p.support === had.support && to < had.to))) continue;
    // page by page: fewer than minPrecision of the pages it passed on identical: the rule's own
    // folder kept, listing every page tested identical; else the folders under that bar kept so,
    // and the other pages tested not identical the rule's exceptions
    const folders = [...new Set(tests.map((t) => folder(t.s)))];
    const share = (f: string) => { const inF = tests.filter((t) => folder(t.s) === f); return inF.filter((t) => t.same).length < minPrecision * inF.length; };
    const mixed = left.filter((t) => t.same).length < minPrecision * left.length ? [from] : folders.filter(share).sort();
    const longest = (s: string) => mixed.filter((k) => s.startsWith(k)).sort((x, y) => y.length - x.length)[0];
    const except = [...new Set(tests.filter((t) => !t.same && longest(t.s) === undefined).map((t) => t.s.slice(from.length)))].sort();
    best.set(from, { to, support: p.support, except, keep: mixed.map((k) => {
      const inK = tests.filter((t) => longest(t.s) === k), same = inK.filter((t) => t.same);
      return { kind: 'keep', from: k, pages: [...new Set(same.map((t) => t.s.slice(k.length)))].sort(), support: inK.length - same.length, tested: inK.length, precision: Math.round((same.length / inK.length) * 1e4) / 1e4 };
    }) });
  }
  const prefixRules: R[] = [...best].sort((x, y) => (x[0] < y[0] ? -1 : 1)).flatMap(([from, { to, support, except, keep }]) => {
    const next = best.get(to)?.to;
    return [{ kind: 'prefix' as const, from, to: next !== undefined && next !== from && !next.startsWith(from) && !from.startsWith(next) ? next : to, except, support }, ...keep];
  });
  if (prefixRules.length) rules = test(sortRules([...rules.map(({ tested: _t, precision: _p, ...r }) => r), ...prefixRules]));
  return rules;
}

const learnt = (urls: readonly string[], clusters: readonly string[][], minSupport: number, minPrecision: number, identical?: readonly string[][]) => {
  const l = new UrlRuleLearner({ minSupport, minPrecision });
  for (const u of urls) l.addUrl(u);
  for (const c of clusters) l.addCluster(c);
  for (const c of identical ?? []) l.addIdentical(c);
  return l.learn();
};

test('rules learnt from a generated crawl equal the slow reference, for several crawls and bars, with and without identical groups', () => {
  for (const seed of [1, 2, 3]) {
    const { urls, clusters, identical } = generatedCrawl(seed);
    for (const same of [undefined, identical]) {
      for (const [minSupport, minPrecision] of [[1, 0.95], [2, 0.9], [3, 1]]) {
        const got = learnt(urls, clusters, minSupport, minPrecision, same).rules.map((r) => ({ ...r }));
        const want = referenceRules(urls, clusters, minSupport, minPrecision, same).map((r) => {
          const { kind, name, from, to, pages, except, support, tested, precision } = r;
          return { kind, ...(name !== undefined ? { name } : {}), ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}), ...(kind === 'prefix' ? { except: except ?? [] } : {}), ...(kind === 'keep' ? { pages: pages ?? [] } : {}), support, tested, precision };
        });
        assert.equal(got, want, `seed ${seed}, bar ${minSupport}/${minPrecision}, identical groups ${same ? 'given' : 'not given'}`);
        if (same) assert.ok(got.some((r) => r.kind === 'keep' && r.from === 'http://lag.example.net/g/' && r.pages!.length > 0), `the lagging mirror is checked page by page: ${JSON.stringify(got.filter((r) => r.kind === 'keep'))}`);
      }
    }
  }
});

test('the generated crawl: the planted rules are learnt, the traps are not, and they predict the duplicates', () => {
  const { urls, clusters } = generatedCrawl(7);
  const rules = learnt(urls, clusters, 1, 0.95);
  const kinds = rules.rules.map((r) => `${r.kind} ${r.name ?? r.from ?? ''}${r.to ? ' ' + r.to : ''}`);
  for (const k of ['path-param jsessionid', 'param sid', 'param utm_medium', 'param utm_source', 'index index.html', 'https ', 'www ', 'prefix http://mirror.example.net/pub/docs/ http://docs.example.org/']) assert.ok(kinds.includes(k), `learnt ${k}: ${kinds.join(', ')}`);
  assert.not.ok(kinds.some((k) => k.startsWith('param page')), '?page=N names distinct pages');
  assert.not.ok(kinds.some((k) => k.includes('old.example.com')), 'a lagging copy is not a mirror');
  assert.ok(kinds.includes('prefix http://lib-mirror.example.com/ http://lib.example.org/'), kinds.join(', '));
  assert.ok(kinds.includes('keep http://lib-mirror.example.com/doc/news/'), 'the folder whose pages differ is kept out');
  assert.is(rules.canonical('http://lib-mirror.example.com/doc/api/new.html'), 'http://lib.example.org/doc/api/new.html');
  assert.is(rules.canonical('http://lib-mirror.example.com/doc/news/new.html'), 'http://lib-mirror.example.com/doc/news/new.html');
  for (const r of rules.rules) assert.ok(r.kind === 'keep' ? r.precision < 0.95 && r.tested >= 1 : r.precision >= 0.95 && r.support >= 1 && r.tested >= 1, JSON.stringify(r));
  assert.is(rules.canonical('https://www.docs.example.org/guide/ch3.html?utm_source=x&sid=1'), 'http://docs.example.org/guide/ch3.html');
  assert.is(rules.canonical('http://mirror.example.net/pub/docs/guide/never-crawled.html'), 'http://docs.example.org/guide/never-crawled.html');
  assert.is(rules.canonical('http://docs.example.org/list?page=4'), 'http://docs.example.org/list?page=4');
  // as a crawler asks: the first spelling is fetched, the others skipped, distinct pages kept
  assert.not.ok(rules.shouldSkip('http://docs.example.org/guide/ch99.html'));
  assert.not.ok(rules.shouldSkip('http://docs.example.org/guide/ch99.html'), 'the same URL again is not a duplicate of itself');
  assert.ok(rules.shouldSkip('http://mirror.example.net/pub/docs/guide/ch99.html'));
  assert.ok(rules.shouldSkip('http://docs.example.org/guide/ch99.html?sid=abc'));
  assert.not.ok(rules.shouldSkip('http://docs.example.org/list?page=7'));
  assert.not.ok(rules.shouldSkip('http://docs.example.org/list?page=8'));
  assert.is(rules.skipped, 2);
  assert.not.ok(rules.shouldSkip('mailto:someone@example.org'), 'not an http URL: never skipped');
});

test('a lagging mirror: its pages tested identical are rewritten, its changed pages and those never tested beside them are not', () => {
  const { urls, clusters, identical } = generatedCrawl(7);
  const near = learnt(urls, clusters, 1, 0.95);
  const rules = learnt(urls, clusters, 1, 0.95, identical);
  const keep = rules.rules.find((r) => r.kind === 'keep' && r.from === 'http://lag.example.net/g/')!;
  assert.ok(keep, JSON.stringify(rules.rules));
  assert.ok(rules.rules.some((r) => r.kind === 'prefix' && r.from === 'http://lag.example.net/g/'), 'the prefix rule itself passes');
  // chapters 0-23 tested, one in four changed (1, 5, 9, …)
  assert.equal(keep.pages, Array.from({ length: 24 }, (_, i) => i).filter((i) => i % 4 !== 1).map((i) => `ch${i}.html`).sort());
  assert.is(keep.support, 6);
  assert.is(keep.tested, 24);
  assert.is(keep.precision, 0.75);
  assert.is(rules.canonical('http://lag.example.net/g/ch0.html'), 'http://docs.example.org/guide/ch0.html');
  assert.is(rules.canonical('http://lag.example.net/g/ch5.html'), 'http://lag.example.net/g/ch5.html', 'a changed page is fetched');
  assert.is(rules.canonical('http://lag.example.net/g/ch50.html'), 'http://lag.example.net/g/ch50.html', 'a page never tested beside changed ones is fetched');
  // the near mirror: 2 of its 12 pages identical, so its rule rewrites those two and no other page, not even in a folder never tested
  assert.ok(rules.rules.some((r) => r.kind === 'keep' && r.from === 'http://near.example.com/' && r.tested === 12 && r.pages!.join() === 'guide/ch40.html,guide/ch41.html'), JSON.stringify(rules.rules.filter((r) => r.from?.includes('near'))));
  assert.ok(near.rules.some((r) => r.kind === 'prefix' && r.from === 'http://near.example.com/'));
  assert.is(rules.canonical('http://near.example.com/guide/ch40.html'), 'http://docs.example.org/guide/ch40.html');
  assert.is(rules.canonical('http://near.example.com/guide/ch31.html'), 'http://near.example.com/guide/ch31.html');
  assert.is(rules.canonical('http://near.example.com/other/x.html'), 'http://near.example.com/other/x.html');
  assert.is(near.canonical('http://near.example.com/other/x.html'), 'http://docs.example.org/other/x.html');
  // without identical groups the near copies count as identical: the lagging mirror reads as exact
  assert.not.ok(near.rules.some((r) => r.kind === 'keep' && r.from === 'http://lag.example.net/g/'));
  assert.is(near.canonical('http://lag.example.net/g/ch5.html'), 'http://docs.example.org/guide/ch5.html');
  // a crawler: the origin's chapter 5 fetched after the lagging copy's is fetched too
  assert.not.ok(rules.shouldSkip('http://lag.example.net/g/ch5.html'));
  assert.not.ok(rules.shouldSkip('http://docs.example.org/guide/ch5.html'));
  assert.not.ok(near.shouldSkip('http://lag.example.net/g/ch5.html'));
  assert.ok(near.shouldSkip('http://docs.example.org/guide/ch5.html'));
});

test('unparsable URLs are reported and skipped; the rules are those of the rest', () => {
  const { urls, clusters } = generatedCrawl(5);
  const clean = learnt(urls, clusters, 1, 0.95);
  const l = new UrlRuleLearner({ minSupport: 1, minPrecision: 0.95 });
  for (const u of ['http://[broken', ...urls, 'not a url', 'ftp://files.example.org/x']) l.addUrl(u);
  for (const c of clusters) l.addCluster(c[0] === clusters[0][0] ? [...c, 'http://exa mple.org/%%'] : c);
  assert.equal(l.errors.map((e) => [e.code, e.url]), [['E_INPUT', 'http://[broken'], ['E_INPUT', 'not a url'], ['E_INPUT', 'ftp://files.example.org/x'], ['E_INPUT', 'http://exa mple.org/%%']]);
  for (const e of l.errors) assert.ok(e.message.includes(JSON.stringify(e.url)), e.message);
  assert.equal(l.learn().rules, clean.rules);
  assert.throws(() => new UrlRuleLearner({ minPrecision: 2 }), (e: unknown) => e instanceof ResembleError && e.code === 'E_OPTION');
  assert.throws(() => new UrlRuleLearner({ minSuport: 2 } as never), (e: unknown) => e instanceof ResembleError && e.code === 'E_OPTION');
});

test('the rules file: versioned, read back to the same rules, bad files named', () => {
  const { urls, clusters } = generatedCrawl(3);
  const rules = learnt(urls, clusters, 1, 0.95);
  const text = rules.save();
  assert.equal(JSON.parse(text).format, 'resemble-url-rules');
  assert.equal(JSON.parse(text).version, 2);
  const back = UrlRules.load(text);
  assert.equal(back.rules, rules.rules);
  for (const u of urls) assert.is(back.canonical(u), rules.canonical(u));
  const bad = (t: string, what: RegExp) => assert.throws(() => UrlRules.load(t), (e: unknown) => e instanceof ResembleError && e.code === 'E_FORMAT' && what.test(e.message));
  bad('{', /not JSON/);
  bad(JSON.stringify({ format: 'resemble-avoid-list', version: 2 }), /format "resemble-avoid-list"/);
  bad(JSON.stringify({ format: 'resemble-url-rules', version: 9, rules: [] }), /version 9/);
  bad(JSON.stringify({ format: 'resemble-url-rules', version: 1, rules: [{ kind: 'param', support: 1, tested: 1, precision: 1 }] }), /rule 1: a param rule needs a name/);
  bad(JSON.stringify({ format: 'resemble-url-rules', version: 1, rules: [{ kind: 'prefix', from: 'http://a.example/x', to: 'http://b.example/', support: 1, tested: 1, precision: 1 }] }), /rule 1: a prefix rule needs from/);
  bad(JSON.stringify({ format: 'resemble-url-rules', version: 2, rules: [{ kind: 'keep', from: 'http://a.example/x/', pages: [3], support: 1, tested: 1, precision: 1 }] }), /rule 1: pages is not a list of strings/);
  bad(JSON.stringify({ format: 'resemble-url-rules', version: 1, rules: [{ kind: 'keep', from: 'http://a.example/x/', pages: ['a.html'], support: 1, tested: 1, precision: 1 }] }), /rule 1: pages belongs to a keep rule of version 2/);
  bad(JSON.stringify({ format: 'resemble-url-rules', version: 2, rules: [{ kind: 'prefix', from: 'http://a.example/x/', to: 'http://b.example/', pages: [], support: 1, tested: 1, precision: 1 }] }), /rule 1: pages belongs to a keep rule/);
  bad(JSON.stringify({ format: 'resemble-url-rules', version: 2, rules: [{ kind: 'keep', from: 'http://a.example/x/', except: [], support: 1, tested: 1, precision: 1 }] }), /rule 1: except belongs to a prefix rule/);
  bad(JSON.stringify({ format: 'resemble-url-rules', version: 1, rules: [{ kind: 'prefix', from: 'http://a.example/x/', to: 'http://b.example/', except: ['a'], support: 1, tested: 1, precision: 1 }] }), /rule 1: except belongs to a prefix rule of version 2/);
});

// the rules file, pinned: a version 2 file written by hand and what it does, and a version 1 file (keep rules without pages) read as it always was
const V2 = '{"format":"resemble-url-rules","version":2,"rules":[{"kind":"param","name":"sid","support":3,"tested":4,"precision":1},'
  + '{"kind":"prefix","from":"http://mirror.example.net/pub/","to":"http://docs.example.org/","support":40,"tested":40,"precision":1},'
  + '{"kind":"keep","from":"http://mirror.example.net/pub/","pages":["a.html","b.html?x=1"],"support":1,"tested":3,"precision":0.6667},'
  + '{"kind":"keep","from":"http://mirror.example.net/pub/news/","pages":["n1.html"],"support":2,"tested":3,"precision":0.3333},'
  + '{"kind":"prefix","from":"http://ftp.example.edu/pub/","to":"http://docs.example.org/","except":["x.html","d/y.html?v=2"],"support":30,"tested":30,"precision":1}]}\n';
const V1 = '{"format":"resemble-url-rules","version":1,"rules":[{"kind":"prefix","from":"http://mirror.example.net/pub/","to":"http://docs.example.org/","support":40,"tested":40,"precision":1},'
  + '{"kind":"keep","from":"http://mirror.example.net/pub/news/","support":2,"tested":3,"precision":0.3333}]}\n';

test('the rules file, version 2 and version 1: test vectors', () => {
  const v2 = UrlRules.load(V2);
  assert.is(v2.save(), V2, 'saved byte for byte as read');
  const c2 = (u: string) => v2.canonical(u);
  assert.is(c2('http://mirror.example.net/pub/a.html?sid=9'), 'http://docs.example.org/a.html', 'listed at the prefix\'s own folder');
  assert.is(c2('http://mirror.example.net/pub/b.html?x=1'), 'http://docs.example.org/b.html?x=1', 'listed with its query');
  assert.is(c2('http://mirror.example.net/pub/b.html'), 'http://mirror.example.net/pub/b.html', 'not listed: left as it is');
  assert.is(c2('http://mirror.example.net/pub/c.html'), 'http://mirror.example.net/pub/c.html');
  assert.is(c2('http://mirror.example.net/pub/news/n1.html'), 'http://docs.example.org/news/n1.html', 'listed by the longest keep rule: the prefix rule rewrites it');
  assert.is(c2('http://mirror.example.net/pub/news/n2.html'), 'http://mirror.example.net/pub/news/n2.html');
  assert.is(c2('http://mirror.example.net/pub/news/a.html'), 'http://mirror.example.net/pub/news/a.html', 'a shorter keep rule\'s list does not reach into a longer one');
  assert.is(c2('http://mirror.example.net/pub/api/a.html'), 'http://mirror.example.net/pub/api/a.html', 'under the prefix\'s own keep rule');
  assert.is(c2('http://mirror.example.net/other.html'), 'http://mirror.example.net/other.html');
  assert.is(c2('http://ftp.example.edu/pub/x.html'), 'http://ftp.example.edu/pub/x.html', 'an exception of the prefix rule');
  assert.is(c2('http://ftp.example.edu/pub/d/y.html?v=2&sid=4'), 'http://ftp.example.edu/pub/d/y.html?v=2', 'an exception, read after the parameters are dropped');
  assert.is(c2('http://ftp.example.edu/pub/d/y.html'), 'http://docs.example.org/d/y.html');
  assert.is(c2('http://ftp.example.edu/pub/z.html'), 'http://docs.example.org/z.html');
  const v1 = UrlRules.load(V1);
  assert.equal(v1.rules.map((r) => r.pages), [undefined, undefined]);
  assert.is(v1.canonical('http://mirror.example.net/pub/c.html'), 'http://docs.example.org/c.html');
  assert.is(v1.canonical('http://mirror.example.net/pub/api/a.html'), 'http://docs.example.org/api/a.html');
  assert.is(v1.canonical('http://mirror.example.net/pub/news/n1.html'), 'http://mirror.example.net/pub/news/n1.html', 'a version 1 keep rule holds its whole folder');
  assert.equal(JSON.parse(v1.save()).version, 2, 'written back as version 2');
  assert.equal(UrlRules.load(v1.save()).canonical('http://mirror.example.net/pub/news/n1.html'), 'http://mirror.example.net/pub/news/n1.html');
});

test('findCollections({ rules }): rules from the crawl, bad URLs to onError', async () => {
  await init();
  const body = (i: number) => `<html><body>${Array.from({ length: 30 }, (_, k) => `<p>Chapter ${i} line ${k}: ${'word'.repeat((i + k) % 7 + 1)} text ${i * 31 + k}</p>`).join('\n')}</body></html>`;
  const pages: Array<{ url: string; html: string }> = [];
  for (let i = 0; i < 20; i++) {
    pages.push({ url: `http://docs.example.org/guide/ch${i}.html`, html: body(i) });
    pages.push({ url: `http://mirror.example.net/docs/guide/ch${i}.html`, html: body(i) });
    if (i % 4 === 0) pages.push({ url: `http://docs.example.org/guide/ch${i}.html?sid=${'ab'.repeat(16)}${i}`, html: body(i) });
  }
  const errors: string[] = [];
  const found = await findCollections(pages, { rules: true, workers: 1, onError: (e) => errors.push(`${e.code} ${e.message}`) });
  const rules = found.urlRules!;
  assert.equal(found.summary.rules, { rules: rules.rules.length, errors: 0 });
  assert.equal(rules.rules.map((r) => `${r.kind} ${r.name ?? r.from}`), ['param sid', 'prefix http://mirror.example.net/docs/']);
  assert.equal(errors, []);
  const none = await findCollections(pages, { workers: 1 });
  assert.is(none.urlRules, undefined);
  try { await findCollections(pages, { rules: 3 as never }); assert.unreachable(); } catch (e) { assert.ok(e instanceof ResembleError && e.code === 'E_OPTION'); }
});

test.run();
