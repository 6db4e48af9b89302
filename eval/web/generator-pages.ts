/**
 * A tuning crawl (defaults may be fitted on it) of pages as documentation generators write them,
 * which a web crawl's rules must not mistake: the libxslt reference (the xmlsoft generator, as
 * libxml2's: one page written under three names, `html/index.html`, `html/book1.html` and
 * `html/libxslt-lib.html`) in two builds, origin and lagging mirror; and the Python-Markdown
 * documentation (MkDocs: every page names its own URL, in its canonical link and in the link to its
 * source, `.../edit/master/docs/extensions/index.md`) under `/docs/`, its folder pages naming their
 * own folder's path; beside them shared hosting with the hoster's stock not-found page, a host's
 * own not-found page naming the path, and a parked domain. Every phenomenon of phenomena.ts.
 *
 *   node --max-old-space-size=8192 --import tsx eval/web/generator-pages.ts [--sources DIR] [--out DIR] [--seed N]
 *
 * Default output $RESEMBLE_DATA/generator-pages; the files and truth of phenomena.ts. Score it
 * with `node --import tsx eval/web/score.ts --data DIR`.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dataDirs } from '../manuals/build.js';
import type { CopySpec, Work } from '../manuals/plan.js';
import type { Source } from '../manuals/sources.js';
import { buildWebCrawl, DEFAULT_RATES, type WebCrawlSpec, type WebHost } from './phenomena.js';

const deb = (id: string, pkg: string, version: string, html: string, licence: string, upstream: string): Source =>
  ({ id, kind: 'deb', package: pkg, version, html, licence, upstream });

export const GENERATOR_SOURCES: Source[] = [
  deb('libxslt-u4', 'libxslt1-dev', '1.1.35-1+deb12u4', 'usr/share/doc/libxslt1-dev/html', 'MIT', 'libxslt 1.1.35 documentation (xmlsoft generator)'),
  deb('libxslt-u3', 'libxslt1-dev', '1.1.35-1+deb12u3', 'usr/share/doc/libxslt1-dev/html', 'MIT', 'libxslt 1.1.35 documentation (xmlsoft generator)'),
  deb('markdown', 'python-markdown-doc', '3.4.1-2+deb12u1', 'usr/share/doc/python-markdown-doc/docs', 'BSD-3-Clause', 'Python-Markdown 3.4.1 documentation (MkDocs)'),
];

export const GENERATOR_WORKS: Work[] = [
  { id: 'libxslt', title: 'libxslt documentation', releases: { 'libxslt-u4': { release: '1.1.35-1+deb12u4', line: '1.1' }, 'libxslt-u3': { release: '1.1.35-1+deb12u3', line: '1.1' } } },
  { id: 'markdown', title: 'Python-Markdown documentation (MkDocs)', releases: { markdown: { release: '3.4.1', line: '3.4' } } },
];

const all = { all: true as const };

export const GENERATOR_COPIES: CopySpec[] = [
  { id: 'libxslt-origin', work: 'libxslt', source: 'libxslt-u4', host: 'xslt.example.org', prefix: '/libxslt/docs/', select: all, note: 'origin' },
  { id: 'libxslt-lagging', work: 'libxslt', source: 'libxslt-u3', host: 'mirror.example.com', prefix: '/pub/docs/libxslt/', select: all, note: 'lagging mirror: the previous build' },
  { id: 'markdown-origin', work: 'markdown', source: 'markdown', host: 'python-markdown.example.io', prefix: '/docs/', select: all, note: 'origin: folder pages naming their own folder' },
  { id: 'markdown-notes', work: 'markdown', source: 'markdown', host: 'webdev-notes.example.net', prefix: '/markdown/',
    select: { single: [['extensions/toc.html', 'toc.html'], ['extensions/tables.html', 'tables.html']] }, note: 'two single pages copied' },
];

const SHARED = '198.18.120.7';

export const GENERATOR_HOSTS: WebHost[] = [
  { host: 'xslt.example.org', ip: '198.18.110.4', role: 'origin server', www: true },
  { host: 'mirror.example.com', ip: '198.18.111.20', role: 'mirror host', https: true, server: 'Apache/2.4.62' },
  { host: 'python-markdown.example.io', ip: '198.18.112.9', role: 'origin server', https: true, session: 'sid' },
  { host: 'webdev-notes.example.net', ip: SHARED, role: 'shared hosting: two copied pages, the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'xml-howto.example.com', ip: SHARED, role: 'shared hosting, its own not-found page', server: 'LiteSpeed', softNotFound: 'own' },
  { host: 'expired-domain.example', ip: SHARED, role: 'parked domain', server: 'LiteSpeed', softNotFound: 'stock' },
];

export const GENERATOR_SPEC: WebCrawlSpec = {
  name: 'generator-pages', seed: 4108, sources: GENERATOR_SOURCES, works: GENERATOR_WORKS, copies: GENERATOR_COPIES, hosts: GENERATOR_HOSTS,
  assets: ['libxslt-origin', 'markdown-origin'], rates: DEFAULT_RATES,
};

async function main() {
  const { values } = parseArgs({ options: { sources: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } } });
  const data = process.env.RESEMBLE_DATA;
  const dirs = dataDirs({ sources: values.sources, out: values.out ?? (data ? join(data, GENERATOR_SPEC.name) : undefined) });
  const spec = values.seed === undefined ? GENERATOR_SPEC : { ...GENERATOR_SPEC, seed: Number(values.seed) };
  console.log(JSON.stringify(await buildWebCrawl(spec, dirs), null, 1));
}

if (process.argv[1]?.endsWith('generator-pages.ts')) await main();
