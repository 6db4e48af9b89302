/**
 * A third reporting crawl, held back: built after the defaults of the other crawls were chosen and
 * scored once, with nothing fitted on it. Library and tool manuals on hosts as a web crawler meets
 * them, written as WARC by phenomena.ts with every phenomenon of issue 41 item 3 and the hosts'
 * addresses, from sources no other crawl uses: the GTK 3 reference (gtk-doc), the libvirt
 * documentation, the pytest documentation with its 150 release announcements side by side, the
 * PyMongo and aiohttp documentation (two builds each: origins, exact, partial and lagging mirrors, a
 * mirror host holding several manuals), the GNU gettext manual (texinfo) and the Mako documentation (one
 * copy re-encoded in Latin-1), the SDL2 reference (Doxygen), the Tornado and Scrapy documentation, and
 * small Sphinx sites (Requests, attrs, Mako, jsonschema, psycopg2, Hypothesis, pyOpenSSL) on shared
 * hosting, with a blog and a wiki holding a few copied pages, an archive holding an old release and
 * three copied pages of another manual, and parked domains answering every path with the hoster's
 * stock page.
 *
 *   node --max-old-space-size=8192 --import tsx eval/web/field-manuals.ts [--sources DIR] [--out DIR] [--seed N]
 *
 * Default output $RESEMBLE_DATA/field-manuals: sweep-1.warc.gz, sweep-2.warc.gz, crawl.warc.gz and
 * truth/ (see phenomena.ts). Score it with `node --import tsx eval/web/score.ts --data DIR`.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dataDirs } from '../manuals/build.js';
import type { CopySpec, Work } from '../manuals/plan.js';
import type { Source } from '../manuals/sources.js';
import { buildWebCrawl, DEFAULT_RATES, type WebCrawlSpec, type WebHost } from './phenomena.js';

const deb = (id: string, pkg: string, version: string, html: string, licence: string, upstream: string, exclude?: string[]): Source =>
  ({ id, kind: 'deb', package: pkg, version, html, licence, upstream, ...(exclude ? { exclude } : {}) });
const SPHINX = ['_sources/', '_modules/', '_static/'];

export const FIELD_SOURCES: Source[] = [
  deb('gtk3', 'libgtk-3-doc', '3.24.38-2~deb12u3', 'usr/share/gtk-doc/html/gtk3', 'LGPL-2.1-or-later', 'GTK 3.24 reference (gtk-doc)'),
  deb('libvirt', 'libvirt-doc', '9.0.0-4+deb12u2', 'usr/share/doc/libvirt-doc/html', 'LGPL-2.1-or-later', 'libvirt 9.0 documentation'),
  deb('pytest', 'python-pytest-doc', '7.2.1-2', 'usr/share/doc/python-pytest-doc/html', 'MIT', 'pytest 7.2 documentation (Sphinx)', SPHINX),
  deb('pymongo-u2', 'python-pymongo-doc', '3.11.0-1+deb12u2', 'usr/share/doc/python-pymongo-doc/html', 'Apache-2.0', 'PyMongo 3.11 documentation (Sphinx)', SPHINX),
  deb('pymongo-u1', 'python-pymongo-doc', '3.11.0-1+deb12u1', 'usr/share/doc/python-pymongo-doc/html', 'Apache-2.0', 'PyMongo 3.11 documentation (Sphinx)', SPHINX),
  deb('aiohttp-u2', 'python-aiohttp-doc', '3.8.4-1+deb12u2', 'usr/share/doc/python-aiohttp-doc/html', 'Apache-2.0', 'aiohttp 3.8 documentation (Sphinx)', SPHINX),
  deb('aiohttp-u1', 'python-aiohttp-doc', '3.8.4-1+deb12u1', 'usr/share/doc/python-aiohttp-doc/html', 'Apache-2.0', 'aiohttp 3.8 documentation (Sphinx)', SPHINX),
  deb('gettext', 'gettext-doc', '0.21-12', 'usr/share/doc/gettext', 'GFDL-1.2-or-later', 'GNU gettext 0.21 manual (texinfo)', ['javadoc2/', 'csharpdoc/', 'examples/']),
  deb('sdl2', 'libsdl2-doc', '2.26.5+dfsg-1', 'usr/share/doc/libsdl2-doc/html', 'Zlib', 'SDL 2.26 reference (Doxygen)'),
  deb('tornado', 'python-tornado-doc', '6.2.0-3+deb12u4', 'usr/share/doc/python-tornado-doc/html', 'Apache-2.0', 'Tornado 6.2 documentation (Sphinx)', SPHINX),
  deb('scrapy', 'python-scrapy-doc', '2.8.0-2', 'usr/share/doc/python-scrapy-doc/html', 'BSD-3-Clause', 'Scrapy 2.8 documentation (Sphinx)', SPHINX),
  deb('requests', 'python-requests-doc', '2.28.1+dfsg-1', 'usr/share/doc/python-requests-doc/html', 'Apache-2.0', 'Requests 2.28 documentation (Sphinx)', SPHINX),
  deb('attrs', 'python-attr-doc', '22.2.0-1', 'usr/share/doc/python-attr-doc/html', 'MIT', 'attrs 22.2 documentation (Sphinx)', SPHINX),
  deb('mako', 'python-mako-doc', '1.2.4+ds-1', 'usr/share/doc/python-mako-doc/html', 'MIT', 'Mako 1.2 documentation (Sphinx)', SPHINX),
  deb('jsonschema', 'python-jsonschema-doc', '4.10.3-1', 'usr/share/doc/python-jsonschema-doc/html', 'MIT', 'jsonschema 4.10 documentation (Sphinx)', SPHINX),
  deb('psycopg2', 'python-psycopg2-doc', '2.9.5-1', 'usr/share/doc/python-psycopg2-doc/html', 'LGPL-3.0-or-later', 'psycopg2 2.9 documentation (Sphinx)', SPHINX),
  deb('hypothesis', 'python-hypothesis-doc', '6.67.1-1', 'usr/share/doc/python-hypothesis-doc/html', 'MPL-2.0', 'Hypothesis 6.67 documentation (Sphinx)', SPHINX),
  deb('pyopenssl', 'python-openssl-doc', '23.0.0-1', 'usr/share/doc/python-openssl-doc/html', 'Apache-2.0', 'pyOpenSSL 23.0 documentation (Sphinx)', SPHINX),
];

const one = (id: string, title: string, release: string, line: string): Work => ({ id, title, releases: { [id]: { release, line } } });

export const FIELD_WORKS: Work[] = [
  one('gtk3', 'GTK 3 reference (gtk-doc)', '3.24.38', '3.24'),
  one('libvirt', 'libvirt documentation', '9.0.0', '9.0'),
  one('pytest', 'pytest documentation (Sphinx)', '7.2.1', '7.2'),
  { id: 'pymongo', title: 'PyMongo documentation (Sphinx)', releases: { 'pymongo-u2': { release: '3.11.0-1+deb12u2', line: '3.11' }, 'pymongo-u1': { release: '3.11.0-1+deb12u1', line: '3.11' } } },
  { id: 'aiohttp', title: 'aiohttp documentation (Sphinx)', releases: { 'aiohttp-u2': { release: '3.8.4-1+deb12u2', line: '3.8' }, 'aiohttp-u1': { release: '3.8.4-1+deb12u1', line: '3.8' } } },
  one('gettext', 'GNU gettext manual (texinfo)', '0.21', '0.21'),
  one('sdl2', 'SDL2 reference (Doxygen)', '2.26.5', '2.26'),
  one('tornado', 'Tornado documentation (Sphinx)', '6.2.0', '6.2'),
  one('scrapy', 'Scrapy documentation (Sphinx)', '2.8.0', '2.8'),
  one('requests', 'Requests documentation (Sphinx)', '2.28.1', '2.28'),
  one('attrs', 'attrs documentation (Sphinx)', '22.2.0', '22.2'),
  one('mako', 'Mako documentation (Sphinx)', '1.2.4', '1.2'),
  one('jsonschema', 'jsonschema documentation (Sphinx)', '4.10.3', '4.10'),
  one('psycopg2', 'psycopg2 documentation (Sphinx)', '2.9.5', '2.9'),
  one('hypothesis', 'Hypothesis documentation (Sphinx)', '6.67.1', '6.67'),
  one('pyopenssl', 'pyOpenSSL documentation (Sphinx)', '23.0.0', '23.0'),
];

const part = (fraction: number, salt: string) => ({ fraction, salt });
const all = { all: true as const };

export const FIELD_COPIES: CopySpec[] = [
  // GTK 3: the origin, a partial mirror under another prefix on the mirror host.
  { id: 'gtk3-origin', work: 'gtk3', source: 'gtk3', host: 'docs.gtk.example.org', prefix: '/gtk3/stable/', select: all, note: 'origin' },
  { id: 'gtk3-partial', work: 'gtk3', source: 'gtk3', host: 'ftp.example.jp', prefix: '/pub/GNOME/docs/gtk3/', select: part(0.55, 'gtk3'), note: 'partial mirror under another prefix' },
  // libvirt: the origin, an exact mirror at the same path on the next address.
  { id: 'libvirt-origin', work: 'libvirt', source: 'libvirt', host: 'libvirt.example.org', prefix: '/docs/', select: all, note: 'origin' },
  { id: 'libvirt-mirror', work: 'libvirt', source: 'libvirt', host: 'libvirt-mirror.example.org', prefix: '/docs/', select: all, note: 'exact mirror at the same path, on the next address' },
  // pytest: the origin, an exact mirror under another prefix on the mirror host.
  { id: 'pytest-origin', work: 'pytest', source: 'pytest', host: 'docs.pytest.example.org', prefix: '/en/7.2.x/', select: all, note: 'origin' },
  { id: 'pytest-mirror', work: 'pytest', source: 'pytest', host: 'ftp.example.jp', prefix: '/pub/docs/pytest/7.2/', select: all, note: 'exact mirror under another prefix' },
  // PyMongo: the origin, the previous build on the mirror host.
  { id: 'pymongo-origin', work: 'pymongo', source: 'pymongo-u2', host: 'pymongo.example.com', prefix: '/docs/3.11/', select: all, note: 'origin' },
  { id: 'pymongo-lagging', work: 'pymongo', source: 'pymongo-u1', host: 'ftp.example.jp', prefix: '/pub/docs/pymongo/', select: all, note: 'lagging mirror: the previous build' },
  // aiohttp: the origin, part of the previous build on an old site.
  { id: 'aiohttp-origin', work: 'aiohttp', source: 'aiohttp-u2', host: 'docs.aiohttp.example.org', prefix: '/en/stable/', select: all, note: 'origin' },
  { id: 'aiohttp-old', work: 'aiohttp', source: 'aiohttp-u1', host: 'oldsite.example.info', prefix: '/aiohttp/3.8/', select: part(0.8, 'aiohttp'), note: 'lagging partial copy on an old site' },
  // gettext: the origin, and an exact mirror under another prefix on a mirror host.
  { id: 'gettext-origin', work: 'gettext', source: 'gettext', host: 'www.gnu.example.org', prefix: '/software/gettext/manual/', select: all, note: 'origin' },
  { id: 'gettext-mirror', work: 'gettext', source: 'gettext', host: 'mirror.example.fr', prefix: '/gnu/gettext/manual/', select: all, note: 'exact mirror under another prefix' },
  // Tornado: the origin and a partial mirror at the same path on the same address.
  { id: 'tornado-origin', work: 'tornado', source: 'tornado', host: 'www.tornadoweb.example.org', prefix: '/en/stable/', select: all, note: 'origin' },
  { id: 'tornado-cache', work: 'tornado', source: 'tornado', host: 'tornado-cache.example.net', prefix: '/en/stable/', select: part(0.35, 'tornado'), note: 'partial mirror at the same path' },
  // Unrelated sites.
  { id: 'sdl2', work: 'sdl2', source: 'sdl2', host: 'wiki.libsdl.example.org', prefix: '/doxygen/', select: all, note: 'unrelated site (Doxygen)' },
  { id: 'scrapy', work: 'scrapy', source: 'scrapy', host: 'docs.scrapy.example.org', prefix: '/en/2.8/', select: all, note: 'unrelated site' },
  { id: 'requests', work: 'requests', source: 'requests', host: 'requests.example.io', prefix: '/en/latest/', select: all, note: 'unrelated site on shared hosting' },
  { id: 'attrs', work: 'attrs', source: 'attrs', host: 'attrs.example.org', prefix: '/en/stable/', select: all, note: 'unrelated site on shared hosting' },
  { id: 'mako', work: 'mako', source: 'mako', host: 'makotemplates.example.org', prefix: '/en/latest/', select: all, note: 'origin, on shared hosting' },
  { id: 'mako-latin1', work: 'mako', source: 'mako', host: 'mirror.example.fr', prefix: '/python/mako/', select: all, charset: 'ISO-8859-1', note: 'exact mirror re-encoded in Latin-1' },
  { id: 'jsonschema', work: 'jsonschema', source: 'jsonschema', host: 'jsonschema.example.io', prefix: '/en/stable/', select: all, note: 'unrelated site on shared hosting' },
  { id: 'psycopg2', work: 'psycopg2', source: 'psycopg2', host: 'psycopg.example.org', prefix: '/docs/', select: all, note: 'unrelated site on shared hosting' },
  { id: 'hypothesis', work: 'hypothesis', source: 'hypothesis', host: 'hypothesis.example.io', prefix: '/en/latest/', select: all, note: 'origin, on shared hosting' },
  { id: 'hypothesis-partial', work: 'hypothesis', source: 'hypothesis', host: 'hypothesis-docs.example.com', prefix: '/en/latest/', select: part(0.5, 'hypothesis'), note: 'partial mirror at the same path, on the same address' },
  { id: 'pyopenssl', work: 'pyopenssl', source: 'pyopenssl', host: 'pyopenssl.example.org', prefix: '/en/stable/', select: all, note: 'unrelated site on shared hosting' },
  // Pages copied onto a blog and a wiki, and three pages of a manual on the old site beside its old release.
  { id: 'blog-pytest', work: 'pytest', source: 'pytest', host: 'engineering-blog.example.net', prefix: '/posts/', select: { single: [['how-to/fixtures.html', 'pytest-fixtures.html'], ['how-to/parametrize.html', 'pytest-parametrize.html']] }, note: 'two single pages copied' },
  { id: 'blog-scrapy', work: 'scrapy', source: 'scrapy', host: 'engineering-blog.example.net', prefix: '/posts/', select: { single: [['topics/spiders.html', 'scrapy-spiders.html']] }, note: 'single page copied' },
  { id: 'wiki-libvirt', work: 'libvirt', source: 'libvirt', host: 'ops-wiki.example.org', prefix: '/virt/', select: { single: [['formatdomain.html', 'formatdomain.html'], ['formatnetwork.html', 'formatnetwork.html'], ['uri.html', 'uri.html']] }, note: 'three single pages copied with their paths' },
  { id: 'old-tornado', work: 'tornado', source: 'tornado', host: 'oldsite.example.info', prefix: '/notes/tornado/', select: { single: [['guide/async.html', 'async.html'], ['web.html', 'web.html'], ['httpclient.html', 'httpclient.html']] }, note: 'three single pages copied with their names' },
];

const SHARED = '192.0.2.80', SHARED_NEXT = '192.0.2.81';

export const FIELD_HOSTS: WebHost[] = [
  { host: 'docs.gtk.example.org', ip: '198.51.100.10', role: 'origin server', https: true, server: 'nginx/1.22.1' },
  { host: 'ftp.example.jp', ip: '198.51.100.200', role: 'mirror host holding several manuals', https: true, server: 'Apache/2.4.62' },
  { host: 'libvirt.example.org', ip: '198.51.100.20', role: 'origin server', https: true, session: 'sid' },
  { host: 'libvirt-mirror.example.org', ip: '198.51.100.21', role: 'mirror on the address next to its origin' },
  { host: 'docs.pytest.example.org', ip: '198.51.100.30', role: 'origin server', https: true },
  { host: 'pymongo.example.com', ip: '2001:db8:42::10', role: 'origin server (IPv6)', https: true },
  { host: 'docs.aiohttp.example.org', ip: '198.51.100.40', role: 'origin server', www: true },
  { host: 'oldsite.example.info', ip: '198.51.100.140', role: 'old site holding an earlier release and a few copied pages', session: 'jsessionid' },
  { host: 'www.gnu.example.org', ip: '198.51.100.50', role: 'origin server', www: true, https: true, session: 'PHPSESSID' },
  { host: 'mirror.example.fr', ip: '198.51.100.150', role: 'mirror host: gettext, and Mako re-encoded in Latin-1', server: 'Apache/2.4.62' },
  { host: 'www.tornadoweb.example.org', ip: '198.51.100.60', role: 'origin server', www: true },
  { host: 'tornado-cache.example.net', ip: '198.51.100.60', role: 'partial mirror on its origin\'s address' },
  { host: 'wiki.libsdl.example.org', ip: '198.51.100.70', role: 'origin server', https: true, server: 'nginx/1.22.1' },
  { host: 'docs.scrapy.example.org', ip: '198.51.100.71', role: 'origin server', https: true },
  { host: 'requests.example.io', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed' },
  { host: 'attrs.example.org', ip: SHARED, role: 'shared hosting, its own not-found page', server: 'LiteSpeed', softNotFound: 'own' },
  { host: 'makotemplates.example.org', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed', session: 'sid' },
  { host: 'jsonschema.example.io', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed' },
  { host: 'psycopg.example.org', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed' },
  { host: 'hypothesis.example.io', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed' },
  { host: 'hypothesis-docs.example.com', ip: SHARED, role: 'shared hosting: a partial mirror beside its origin', server: 'LiteSpeed' },
  { host: 'pyopenssl.example.org', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed' },
  { host: 'engineering-blog.example.net', ip: SHARED, role: 'shared hosting: a blog, the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock', session: 'PHPSESSID' },
  { host: 'parked-domain.example', ip: SHARED, role: 'parked domain: every path answers the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'ops-wiki.example.org', ip: SHARED_NEXT, role: 'shared hosting on the next address: three copied pages, the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'coming-soon.example.net', ip: SHARED_NEXT, role: 'parked domain on the next address', server: 'LiteSpeed', softNotFound: 'stock' },
];

export const FIELD_SPEC: WebCrawlSpec = {
  name: 'field-manuals', seed: 5309, sources: FIELD_SOURCES, works: FIELD_WORKS, copies: FIELD_COPIES, hosts: FIELD_HOSTS,
  assets: ['gtk3-origin', 'libvirt-origin', 'pytest-origin', 'pymongo-origin', 'aiohttp-origin', 'tornado-origin', 'scrapy', 'requests'],
  rates: DEFAULT_RATES,
};

async function main() {
  const { values } = parseArgs({ options: { sources: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } } });
  const data = process.env.RESEMBLE_DATA;
  const dirs = dataDirs({ sources: values.sources, out: values.out ?? (data ? join(data, FIELD_SPEC.name) : undefined) });
  const spec = values.seed === undefined ? FIELD_SPEC : { ...FIELD_SPEC, seed: Number(values.seed) };
  console.log(JSON.stringify(await buildWebCrawl(spec, dirs), null, 1));
}

if (process.argv[1]?.endsWith('field-manuals.ts')) await main();
