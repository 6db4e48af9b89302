/**
 * A second reporting crawl (never used to fit a default): library and tool manuals on hosts as a
 * web crawler meets them, written as WARC by phenomena.ts with every phenomenon of issue 41 item 3
 * and the hosts' addresses, from sources no other crawl uses. The CMake 3.25 reference (Sphinx,
 * pages that are mostly shared navigation), the rsyslog and SQLAlchemy 1.4 documentation (Sphinx),
 * the libxml2, Linux-PAM and lxml manuals (two builds each: origins, exact, partial and lagging
 * mirrors, on neighbouring addresses and on a mirror host holding several manuals), the cairo
 * reference (gtk-doc), the R manuals (texinfo, a few long pages) and small Sphinx sites (Click,
 * Babel, Pygments) on shared hosting, with a blog and a notes site holding a few copied pages, and
 * parked domains answering every path with the hoster's stock page.
 *
 *   node --max-old-space-size=8192 --import tsx eval/web/library-manuals.ts [--sources DIR] [--out DIR] [--seed N]
 *
 * Default output $RESEMBLE_DATA/library-manuals: sweep-1.warc.gz, sweep-2.warc.gz, crawl.warc.gz
 * and truth/ (see phenomena.ts). Score it with `node --import tsx eval/web/score.ts --data DIR`.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dataDirs } from '../manuals/build.js';
import type { CopySpec, Work } from '../manuals/plan.js';
import type { Source } from '../manuals/sources.js';
import { buildWebCrawl, DEFAULT_RATES, type WebCrawlSpec, type WebHost } from './phenomena.js';

const deb = (id: string, pkg: string, version: string, html: string, licence: string, upstream: string, exclude?: string[]): Source =>
  ({ id, kind: 'deb', package: pkg, version, html, licence, upstream, ...(exclude ? { exclude } : {}) });

export const LIBRARY_SOURCES: Source[] = [
  deb('cmake', 'cmake-doc', '3.25.1-1', 'usr/share/doc/cmake-data/html', 'BSD-3-Clause', 'CMake 3.25 documentation (Sphinx)', ['variable/', 'prop_tgt/', 'prop_sf/', 'prop_dir/', 'prop_test/', 'prop_inst/', 'prop_cache/', 'prop_gbl/', 'envvar/', '_sources/']),
  deb('rsyslog', 'rsyslog-doc', '8.2302.0+dfsg-1', 'usr/share/doc/rsyslog-doc/html', 'Apache-2.0', 'rsyslog 8.2302 documentation (Sphinx)', ['_sources/']),
  deb('sqlalchemy', 'python-sqlalchemy-doc', '1.4.46+ds1-1', 'usr/share/doc/python-sqlalchemy-doc/html', 'MIT', 'SQLAlchemy 1.4 documentation (Sphinx)', ['_sources/']),
  deb('libxml2-u6', 'libxml2-doc', '2.9.14+dfsg-1.3~deb12u6', 'usr/share/doc/libxml2/html', 'MIT', 'libxml2 2.9.14 documentation'),
  deb('libxml2-u4', 'libxml2-doc', '2.9.14+dfsg-1.3~deb12u4', 'usr/share/doc/libxml2/html', 'MIT', 'libxml2 2.9.14 documentation'),
  deb('pam-u3', 'libpam-doc', '1.5.2-6+deb12u3', 'usr/share/doc/libpam-doc/html', 'BSD-3-Clause or GPL-2.0+', 'Linux-PAM 1.5.2 guides (DocBook)'),
  deb('pam-u2', 'libpam-doc', '1.5.2-6+deb12u2', 'usr/share/doc/libpam-doc/html', 'BSD-3-Clause or GPL-2.0+', 'Linux-PAM 1.5.2 guides (DocBook)'),
  deb('lxml-u1', 'python-lxml-doc', '4.9.2-1+deb12u1', 'usr/share/doc/python-lxml/html', 'BSD-3-Clause', 'lxml 4.9.2 documentation'),
  deb('lxml', 'python-lxml-doc', '4.9.2-1', 'usr/share/doc/python-lxml/html', 'BSD-3-Clause', 'lxml 4.9.2 documentation'),
  deb('cairo', 'libcairo2-doc', '1.16.0-7', 'usr/share/gtk-doc/html/cairo', 'LGPL-2.1 or MPL-1.1', 'cairo 1.16 reference (gtk-doc)'),
  deb('r-manuals', 'r-doc-html', '4.2.2.20221110-2', 'usr/share/R/doc/manual', 'GPL-2.0+', 'R 4.2 manuals (texinfo)'),
  deb('click', 'python-click-doc', '8.1.3-2', 'usr/share/doc/python-click-doc/html', 'BSD-3-Clause', 'Click 8.1 documentation (Sphinx)', ['_sources/']),
  deb('babel', 'python-babel-doc', '2.10.3-1', 'usr/share/doc/python-babel-doc/html', 'BSD-3-Clause', 'Babel 2.10 documentation (Sphinx)', ['_sources/']),
  deb('pygments', 'python-pygments-doc', '2.14.0+dfsg-1', 'usr/share/doc/python-pygments-doc/html', 'BSD-2-Clause', 'Pygments 2.14 documentation (Sphinx)', ['_sources/']),
];

const one = (id: string, title: string, release: string, line: string): Work => ({ id, title, releases: { [id]: { release, line } } });

export const LIBRARY_WORKS: Work[] = [
  one('cmake', 'CMake documentation (Sphinx)', '3.25.1', '3.25'),
  one('rsyslog', 'rsyslog documentation (Sphinx)', '8.2302.0', '8'),
  one('sqlalchemy', 'SQLAlchemy documentation (Sphinx)', '1.4.46', '1.4'),
  { id: 'libxml2', title: 'libxml2 documentation', releases: { 'libxml2-u6': { release: '2.9.14+dfsg-1.3~deb12u6', line: '2.9' }, 'libxml2-u4': { release: '2.9.14+dfsg-1.3~deb12u4', line: '2.9' } } },
  { id: 'pam', title: 'Linux-PAM guides (DocBook)', releases: { 'pam-u3': { release: '1.5.2-6+deb12u3', line: '1.5' }, 'pam-u2': { release: '1.5.2-6+deb12u2', line: '1.5' } } },
  { id: 'lxml', title: 'lxml documentation', releases: { 'lxml-u1': { release: '4.9.2-1+deb12u1', line: '4.9' }, lxml: { release: '4.9.2-1', line: '4.9' } } },
  one('cairo', 'cairo reference (gtk-doc)', '1.16.0', '1.16'),
  one('r-manuals', 'R manuals (texinfo)', '4.2.2', '4.2'),
  one('click', 'Click documentation (Sphinx)', '8.1.3', '8.1'),
  one('babel', 'Babel documentation (Sphinx)', '2.10.3', '2.10'),
  one('pygments', 'Pygments documentation (Sphinx)', '2.14.0', '2.14'),
];

const part = (fraction: number, salt: string) => ({ fraction, salt });
const all = { all: true as const };

export const LIBRARY_COPIES: CopySpec[] = [
  // CMake: the origin, a partial mirror under another prefix on the mirror host.
  { id: 'cmake-origin', work: 'cmake', source: 'cmake', host: 'cmake.example.org', prefix: '/cmake/help/v3.25/', select: all, note: 'origin' },
  { id: 'cmake-partial', work: 'cmake', source: 'cmake', host: 'ftp.example.de', prefix: '/pub/docs/cmake/', select: part(0.4, 'cmake'), note: 'partial mirror under another prefix' },
  // rsyslog: the origin, an exact mirror under another prefix on the next address.
  { id: 'rsyslog-origin', work: 'rsyslog', source: 'rsyslog', host: 'www.rsyslog.example.com', prefix: '/doc/', select: all, note: 'origin' },
  { id: 'rsyslog-mirror', work: 'rsyslog', source: 'rsyslog', host: 'rsyslog-docs.example.net', prefix: '/v8-stable/', select: all, note: 'exact mirror under another prefix, on the next address' },
  // SQLAlchemy: the origin, a partial mirror at the same path on the mirror host.
  { id: 'sqlalchemy-origin', work: 'sqlalchemy', source: 'sqlalchemy', host: 'docs.sqlalchemy.example.org', prefix: '/en/14/', select: all, note: 'origin' },
  { id: 'sqlalchemy-partial', work: 'sqlalchemy', source: 'sqlalchemy', host: 'ftp.example.de', prefix: '/pub/docs/sqlalchemy/14/', select: part(0.5, 'sqlalchemy'), note: 'partial mirror under another prefix' },
  // libxml2: the origin, the previous build on the mirror host.
  { id: 'libxml2-origin', work: 'libxml2', source: 'libxml2-u6', host: 'xmlsoft.example.org', prefix: '/libxml2/docs/', select: all, note: 'origin' },
  { id: 'libxml2-lagging', work: 'libxml2', source: 'libxml2-u4', host: 'ftp.example.de', prefix: '/pub/docs/libxml2/', select: all, note: 'lagging mirror: the previous build' },
  // Linux-PAM: the origin on IPv6, the previous build on an archive host.
  { id: 'pam-origin', work: 'pam', source: 'pam-u3', host: 'linux-pam.example.org', prefix: '/Linux-PAM-html/', select: all, note: 'origin' },
  { id: 'pam-archive', work: 'pam', source: 'pam-u2', host: 'archive.example.ac.uk', prefix: '/linux-pam/1.5.2/html/', select: all, note: 'lagging copy on an archive host' },
  // lxml: the origin, the previous build on the next address at the same path.
  { id: 'lxml-origin', work: 'lxml', source: 'lxml-u1', host: 'lxml.example.de', prefix: '/4.9/', select: all, note: 'origin' },
  { id: 'lxml-next', work: 'lxml', source: 'lxml', host: 'lxml-mirror.example.de', prefix: '/4.9/', select: all, note: 'lagging mirror at the same path, on the next address' },
  // Unrelated sites, some on shared hosting, one partial mirror beside its origin.
  { id: 'cairo', work: 'cairo', source: 'cairo', host: 'cairographics.example.org', prefix: '/manual/', select: all, note: 'unrelated site' },
  { id: 'r-manuals', work: 'r-manuals', source: 'r-manuals', host: 'cran.example.org', prefix: '/doc/manuals/r-release/', select: all, note: 'unrelated site: a few long pages' },
  { id: 'click', work: 'click', source: 'click', host: 'click.example.com', prefix: '/en/8.1.x/', select: all, note: 'origin, on shared hosting' },
  { id: 'babel', work: 'babel', source: 'babel', host: 'babel.example.com', prefix: '/en/latest/', select: part(0.7, 'babel'), note: 'unrelated site on shared hosting (part of the manual)' },
  { id: 'pygments', work: 'pygments', source: 'pygments', host: 'pygments.example.org', prefix: '/docs/', select: all, note: 'origin, on shared hosting' },
  { id: 'pygments-partial', work: 'pygments', source: 'pygments', host: 'pygments-mirror.example.com', prefix: '/docs/', select: part(0.5, 'pygments'), note: 'partial mirror at the same path, on the same address' },
  // Pages copied onto a blog and a notes site, and three pages of a manual beside an archive's old release.
  { id: 'blog-cmake', work: 'cmake', source: 'cmake', host: 'devblog.example.net', prefix: '/posts/', select: { single: [['guide/tutorial/index.html', 'cmake-tutorial.html'], ['manual/cmake-buildsystem.7.html', 'cmake-buildsystem.html']] }, note: 'two single pages copied' },
  { id: 'blog-sqlalchemy', work: 'sqlalchemy', source: 'sqlalchemy', host: 'devblog.example.net', prefix: '/posts/', select: { single: [['orm/cascades.html', 'sqlalchemy-cascades.html']] }, note: 'single page copied' },
  { id: 'notes-rsyslog', work: 'rsyslog', source: 'rsyslog', host: 'sysadmin-notes.example.org', prefix: '/rsyslog/', select: { single: [['configuration/modules/imfile.html', 'configuration/modules/imfile.html'], ['configuration/modules/imdocker.html', 'configuration/modules/imdocker.html'], ['configuration/modules/im3195.html', 'configuration/modules/im3195.html']] }, note: 'three single pages copied with their paths' },
  { id: 'archive-lxml', work: 'lxml', source: 'lxml-u1', host: 'archive.example.ac.uk', prefix: '/notes/lxml/', select: { single: [['FAQ.html', 'FAQ.html'], ['api.html', 'api.html'], ['parsing.html', 'parsing.html']] }, note: 'three single pages copied with their names' },
];

const SHARED = '198.51.100.40', SHARED_NEXT = '198.51.100.41';

export const LIBRARY_HOSTS: WebHost[] = [
  { host: 'cmake.example.org', ip: '203.0.113.10', role: 'origin server', https: true, server: 'nginx/1.22.1' },
  { host: 'ftp.example.de', ip: '203.0.113.77', role: 'mirror host holding several manuals', https: true, server: 'Apache/2.4.62' },
  { host: 'www.rsyslog.example.com', ip: '203.0.113.20', role: 'origin server', www: true, https: true, session: 'PHPSESSID' },
  { host: 'rsyslog-docs.example.net', ip: '203.0.113.21', role: 'mirror on the address next to its origin' },
  { host: 'docs.sqlalchemy.example.org', ip: '203.0.113.30', role: 'origin server', https: true },
  { host: 'xmlsoft.example.org', ip: '203.0.113.40', role: 'origin server', www: true },
  { host: 'linux-pam.example.org', ip: '2001:db8:77::5', role: 'origin server (IPv6)', https: true },
  { host: 'archive.example.ac.uk', ip: '203.0.113.140', role: 'archive of earlier releases, with a few copied pages', session: 'jsessionid' },
  { host: 'lxml.example.de', ip: '203.0.113.50', role: 'origin server', https: true },
  { host: 'lxml-mirror.example.de', ip: '203.0.113.51', role: 'mirror of the previous build on the next address' },
  { host: 'cairographics.example.org', ip: '203.0.113.60', role: 'origin server', www: true },
  { host: 'cran.example.org', ip: '203.0.113.61', role: 'origin server', https: true, server: 'Apache/2.4.62' },
  { host: 'click.example.com', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed' },
  { host: 'babel.example.com', ip: SHARED, role: 'shared hosting, its own not-found page', server: 'LiteSpeed', softNotFound: 'own' },
  { host: 'pygments.example.org', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed', session: 'sid' },
  { host: 'pygments-mirror.example.com', ip: SHARED, role: 'shared hosting: a partial mirror beside its origin', server: 'LiteSpeed' },
  { host: 'devblog.example.net', ip: SHARED, role: 'shared hosting: a blog, the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock', session: 'PHPSESSID' },
  { host: 'domain-for-sale.example', ip: SHARED, role: 'parked domain: every path answers the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'sysadmin-notes.example.org', ip: SHARED_NEXT, role: 'shared hosting on the next address: three copied pages, the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'under-construction.example.net', ip: SHARED_NEXT, role: 'parked domain on the next address', server: 'LiteSpeed', softNotFound: 'stock' },
];

export const LIBRARY_SPEC: WebCrawlSpec = {
  name: 'library-manuals', seed: 4107, sources: LIBRARY_SOURCES, works: LIBRARY_WORKS, copies: LIBRARY_COPIES, hosts: LIBRARY_HOSTS,
  assets: ['cmake-origin', 'cmake-partial', 'rsyslog-origin', 'sqlalchemy-origin', 'libxml2-origin', 'lxml-origin', 'click', 'pygments'],
  rates: DEFAULT_RATES,
};

async function main() {
  const { values } = parseArgs({ options: { sources: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } } });
  const data = process.env.RESEMBLE_DATA;
  const dirs = dataDirs({ sources: values.sources, out: values.out ?? (data ? join(data, LIBRARY_SPEC.name) : undefined) });
  const spec = values.seed === undefined ? LIBRARY_SPEC : { ...LIBRARY_SPEC, seed: Number(values.seed) };
  console.log(JSON.stringify(await buildWebCrawl(spec, dirs), null, 1));
}

if (process.argv[1]?.endsWith('library-manuals.ts')) await main();
