/**
 * A tuning crawl (defaults may be fitted on it) of the same shape as the reporting crawl
 * hosted-manuals.ts, from other sources: the SQLite documentation (its release notes are mostly
 * template), the Git documentation in two builds and the Debian New Maintainers' Guide, on hosts
 * with every phenomenon of phenomena.ts: www. and https aliases, session ids, soft-404 hosts and
 * parked domains on shared hosting, a partial mirror, a lagging mirror. Planted: near copies of
 * SQLite release notes on a notes host, about one word in 60 of each page's text changed, so that
 * most of each page is the site's template (content mode against whole pages, issue 41 item 6).
 *
 *   node --max-old-space-size=8192 --import tsx eval/web/tuning-web.ts [--sources DIR] [--out DIR] [--seed N]
 *
 * Default output $RESEMBLE_DATA/tuning-web; the files and truth of phenomena.ts, and
 * truth/planted.json (the planted near copies and the pages they copy).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dataDirs } from '../manuals/build.js';
import type { Page } from '../manuals/layout.js';
import type { CopySpec, Work } from '../manuals/plan.js';
import type { Source } from '../manuals/sources.js';
import { buildWebCrawl, DEFAULT_RATES, draw, type WebCrawlSpec, type WebHost } from './phenomena.js';

const deb = (id: string, pkg: string, version: string, html: string, licence: string, upstream: string, exclude?: string[]): Source =>
  ({ id, kind: 'deb', package: pkg, version, html, licence, upstream, ...(exclude ? { exclude } : {}) });

export const TUNING_SOURCES: Source[] = [
  deb('sqlite-3.40', 'sqlite3-doc', '3.40.1-2+deb12u2', 'usr/share/doc/sqlite3', 'public domain', 'SQLite 3.40.1 documentation', ['images/']),
  deb('git-2.39-u3', 'git-doc', '1:2.39.5-0+deb12u3', 'usr/share/doc/git-doc', 'GPL-2.0', 'Git 2.39.5 documentation'),
  deb('git-2.39-u2', 'git-doc', '1:2.39.5-0+deb12u2', 'usr/share/doc/git-doc', 'GPL-2.0', 'Git 2.39.5 documentation'),
  deb('maint-guide', 'maint-guide', '1.2.53', 'usr/share/doc/maint-guide/html', 'GPL-2.0+', 'Debian New Maintainers\' Guide 1.2.53'),
];

export const TUNING_WORKS: Work[] = [
  { id: 'sqlite', title: 'SQLite documentation', releases: { 'sqlite-3.40': { release: '3.40.1', line: '3.40' } } },
  { id: 'git', title: 'Git documentation (AsciiDoc)', releases: { 'git-2.39-u3': { release: '2.39.5-0+deb12u3', line: '2.39' }, 'git-2.39-u2': { release: '2.39.5-0+deb12u2', line: '2.39' } } },
  { id: 'maint-guide', title: 'Debian New Maintainers\' Guide', releases: { 'maint-guide': { release: '1.2.53', line: '1.2' } } },
];

/**
 * The release notes planted as near copies (pages of the SQLite documentation): four, fewer than
 * the mirroring rule's minPages, so the notes host is a host of copied pages, as the truth says.
 */
export const PLANTED = ['releaselog/3_38_1.html', 'releaselog/3_36_0.html', 'releaselog/3_28_0.html', 'releaselog/3_8_7_2.html'];

const part = (fraction: number, salt: string) => ({ fraction, salt });
const all = { all: true as const };

export const TUNING_COPIES: CopySpec[] = [
  { id: 'sqlite-origin', work: 'sqlite', source: 'sqlite-3.40', host: 'www.sqlite.example.com', prefix: '/docs/', select: all, note: 'origin' },
  { id: 'sqlite-partial', work: 'sqlite', source: 'sqlite-3.40', host: 'mirrors.example.org', prefix: '/sqlite/', select: part(0.5, 'sqlite'), note: 'partial mirror under another prefix' },
  { id: 'sqlite-notes', work: 'sqlite', source: 'sqlite-3.40', host: 'dbnotes.example.net', prefix: '/sqlite/', select: { single: PLANTED.map((p) => [p, p] as [string, string]) }, note: 'near copies of release notes (planted: a word in 60 changed)' },
  { id: 'git-origin', work: 'git', source: 'git-2.39-u3', host: 'git.example.com', prefix: '/docs/', select: all, note: 'origin' },
  { id: 'git-lagging', work: 'git', source: 'git-2.39-u2', host: 'mirrors.example.org', prefix: '/git/docs/', select: all, note: 'lagging mirror: the previous build' },
  { id: 'maint', work: 'maint-guide', source: 'maint-guide', host: 'maint.example.com', prefix: '/doc/maint-guide/', select: all, note: 'unrelated site on shared hosting' },
  { id: 'maint-mirror', work: 'maint-guide', source: 'maint-guide', host: 'debmirror.example.com', prefix: '/maint-guide/', select: all, note: 'exact mirror on shared hosting' },
];

const SHARED = '198.18.90.4';

export const TUNING_HOSTS: WebHost[] = [
  { host: 'www.sqlite.example.com', ip: '198.18.60.2', role: 'origin server', www: true, https: true },
  { host: 'mirrors.example.org', ip: '198.18.61.9', role: 'mirror host holding two manuals', https: true, server: 'nginx/1.22.1' },
  { host: 'dbnotes.example.net', ip: SHARED, role: 'shared hosting: near copies of release notes, the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'git.example.com', ip: '198.18.62.1', role: 'origin server', https: true, session: 'jsessionid' },
  { host: 'maint.example.com', ip: SHARED, role: 'shared hosting, its own not-found page', server: 'LiteSpeed', softNotFound: 'own', www: true },
  { host: 'debmirror.example.com', ip: SHARED, role: 'shared hosting: an exact mirror', server: 'LiteSpeed', session: 'PHPSESSID' },
  { host: 'parked-site.example', ip: SHARED, role: 'parked domain', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'for-sale.example.org', ip: SHARED, role: 'parked domain', server: 'LiteSpeed', softNotFound: 'stock' },
];

/** Takes a page's HTML; returns it with about one word in `every` of its text changed (a letter doubled), by hashes of the seed. */
export function changeWords(html: string, seed: number, key: string, every = 60): string {
  let k = 0;
  return html.replace(/(<(script|style)\b[^]*?<\/\2>)|(<[^>]*>)|([A-Za-z]{4,})/g, (m, script, _t, tag, word) => {
    if (script || tag || !word) return m;
    k++;
    return draw(seed, `word ${k}`, key) < 1 / every ? word.slice(0, 2) + word[1] + word.slice(2) : word;
  });
}

export const TUNING_SPEC: WebCrawlSpec = {
  name: 'tuning-web', seed: 4106, sources: TUNING_SOURCES, works: TUNING_WORKS, copies: TUNING_COPIES, hosts: TUNING_HOSTS,
  assets: ['sqlite-origin', 'sqlite-partial', 'git-origin'], rates: DEFAULT_RATES,
  plant: (pages: Page[]) => pages.map((p) => (p.copy === 'sqlite-notes'
    ? { ...p, bytes: new TextEncoder().encode(changeWords(new TextDecoder().decode(p.bytes), 4106, p.url)) } : p)),
};

async function main() {
  const { values } = parseArgs({ options: { sources: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } } });
  const data = process.env.RESEMBLE_DATA;
  const dirs = dataDirs({ sources: values.sources, out: values.out ?? (data ? join(data, TUNING_SPEC.name) : undefined) });
  // another seed: the same sites crawled again (other variant URLs, another fetch order; the planted copies are the same)
  const summary = await buildWebCrawl(values.seed === undefined ? TUNING_SPEC : { ...TUNING_SPEC, seed: Number(values.seed) }, dirs);
  writeFileSync(join(dirs.out, 'truth', 'planted.json'), JSON.stringify(TUNING_COPIES.filter((c) => c.id === 'sqlite-notes').flatMap((c) =>
    PLANTED.map((p) => ({ copy: `http://${c.host}${c.prefix}${p}`, of: `http://www.sqlite.example.com/docs/${p}` }))), null, 1) + '\n');
  console.log(JSON.stringify(summary, null, 1));
}

if (process.argv[1]?.endsWith('tuning-web.ts')) await main();
