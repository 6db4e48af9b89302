/**
 * A reporting crawl (never used to fit a default): manuals on hosts as a web crawler meets them,
 * written as WARC by phenomena.ts with every phenomenon of issue 41 item 3 and the hosts' addresses.
 * The Apache Tomcat 10.1 documentation, the Wireshark user's and developer's guides, the BIND 9
 * Administrator Reference Manual (two builds each: origins, exact, partial and lagging mirrors, on
 * neighbouring addresses and on a mirror host holding several manuals), the libsigc++ 3.0 reference
 * with its distant 2.0 release on an archive host that also holds three copied pages of the
 * Wireshark developer's guide, and small Sphinx, texi2html and Doxygen sites on shared hosting
 * (one address for many unrelated hosts, parked domains answering every path with the hoster's
 * stock page, a partial mirror beside its origin).
 *
 *   node --max-old-space-size=8192 --import tsx eval/web/hosted-manuals.ts [--sources DIR] [--out DIR] [--seed N]
 *
 * Default output $RESEMBLE_DATA/hosted-manuals: sweep-1.warc.gz, sweep-2.warc.gz, crawl.warc.gz and
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

export const HOSTED_SOURCES: Source[] = [
  deb('tomcat-10.1.60', 'tomcat10-docs', '10.1.60-1~deb12u1', 'usr/share/tomcat10-docs/docs', 'Apache-2.0', 'Apache Tomcat 10.1.60 documentation', ['api/', 'elapi/', 'jspapi/', 'servletapi/', 'websocketapi/', 'jaspicapi/', 'annotationapi/']),
  deb('tomcat-10.1.55', 'tomcat10-docs', '10.1.55-1~deb12u1', 'usr/share/tomcat10-docs/docs', 'Apache-2.0', 'Apache Tomcat 10.1.55 documentation', ['api/', 'elapi/', 'jspapi/', 'servletapi/', 'websocketapi/', 'jaspicapi/', 'annotationapi/']),
  deb('wsug-4.0.17', 'wireshark-doc', '4.0.17-0+deb12u3', 'usr/share/doc/wireshark/wsug_html_chunked', 'GPL-2.0-or-later', 'Wireshark 4.0.17 User\'s Guide'),
  deb('wsug-4.0.6', 'wireshark-doc', '4.0.6-1~deb12u1', 'usr/share/doc/wireshark/wsug_html_chunked', 'GPL-2.0-or-later', 'Wireshark 4.0.6 User\'s Guide'),
  deb('wsdg-4.0.17', 'wireshark-doc', '4.0.17-0+deb12u3', 'usr/share/doc/wireshark/wsdg_html_chunked', 'GPL-2.0-or-later', 'Wireshark 4.0.17 Developer\'s Guide'),
  deb('wsdg-4.0.6', 'wireshark-doc', '4.0.6-1~deb12u1', 'usr/share/doc/wireshark/wsdg_html_chunked', 'GPL-2.0-or-later', 'Wireshark 4.0.6 Developer\'s Guide'),
  deb('bind-u3', 'bind9-doc', '1:9.18.49-1~deb12u3', 'usr/share/doc/bind9-doc/arm', 'MPL-2.0', 'BIND 9.18 Administrator Reference Manual (Sphinx)'),
  deb('bind-u1', 'bind9-doc', '1:9.18.49-1~deb12u1', 'usr/share/doc/bind9-doc/arm', 'MPL-2.0', 'BIND 9.18 Administrator Reference Manual (Sphinx)'),
  deb('sigc-3.0', 'libsigc++-3.0-doc', '3.4.0-1', 'usr/share/doc/libsigc++-3.0-doc/reference/html', 'LGPL-2.1-or-later', 'libsigc++ 3.4 reference (Doxygen)'),
  deb('sigc-2.0', 'libsigc++-2.0-doc', '2.12.0-1', 'usr/share/doc/libsigc++-2.0-doc/reference/html', 'LGPL-2.1-or-later', 'libsigc++ 2.12 reference (Doxygen)'),
  deb('jinja', 'python-jinja2-doc', '3.1.2-1+deb12u3', 'usr/share/doc/python-jinja2-doc/html', 'BSD-3-Clause', 'Jinja 3.1 documentation (Sphinx)'),
  deb('werkzeug', 'python-werkzeug-doc', '2.2.2-3+deb12u1', 'usr/share/doc/python-werkzeug-doc/html', 'BSD-3-Clause', 'Werkzeug 2.2 documentation (Sphinx)'),
  deb('flask', 'python-flask-doc', '2.2.2-3', 'usr/share/doc/python-flask-doc/html', 'BSD-3-Clause', 'Flask 2.2 documentation (Sphinx)'),
  deb('cryptography', 'python-cryptography-doc', '38.0.4-3+deb12u1', 'usr/share/doc/python-cryptography-doc/html', 'Apache-2.0 or BSD-3-Clause', 'pyca/cryptography 38 documentation (Sphinx)'),
  deb('zsh', 'zsh-doc', '5.9-4', 'usr/share/doc/zsh-common/html', 'zsh licence (MIT-like)', 'The Z Shell Manual 5.9 (texi2html)'),
  deb('doxygen', 'doxygen-doc', '1.9.4-4', 'usr/share/doc/doxygen/html', 'GPL-2.0', 'Doxygen 1.9.4 manual', ['examples/']),
];

const one = (id: string, title: string, release: string, line: string): Work => ({ id, title, releases: { [id]: { release, line } } });

export const HOSTED_WORKS: Work[] = [
  { id: 'tomcat', title: 'Apache Tomcat 10.1 documentation', releases: { 'tomcat-10.1.60': { release: '10.1.60', line: '10.1' }, 'tomcat-10.1.55': { release: '10.1.55', line: '10.1' } } },
  { id: 'wsug', title: 'Wireshark User\'s Guide (AsciiDoc/DocBook)', releases: { 'wsug-4.0.17': { release: '4.0.17', line: '4.0' }, 'wsug-4.0.6': { release: '4.0.6', line: '4.0' } } },
  { id: 'wsdg', title: 'Wireshark Developer\'s Guide (AsciiDoc/DocBook)', releases: { 'wsdg-4.0.17': { release: '4.0.17', line: '4.0' }, 'wsdg-4.0.6': { release: '4.0.6', line: '4.0' } } },
  { id: 'bind', title: 'BIND 9 Administrator Reference Manual (Sphinx)', releases: { 'bind-u3': { release: '9.18.49-1~deb12u3', line: '9.18' }, 'bind-u1': { release: '9.18.49-1~deb12u1', line: '9.18' } } },
  { id: 'sigc', title: 'libsigc++ reference (Doxygen)', releases: { 'sigc-3.0': { release: '3.4.0', line: '3' }, 'sigc-2.0': { release: '2.12.0', line: '2' } } },
  one('jinja', 'Jinja documentation (Sphinx)', '3.1.2', '3.1'),
  one('werkzeug', 'Werkzeug documentation (Sphinx)', '2.2.2', '2.2'),
  one('flask', 'Flask documentation (Sphinx)', '2.2.2', '2.2'),
  one('cryptography', 'pyca/cryptography documentation (Sphinx)', '38.0.4', '38'),
  one('zsh', 'The Z Shell Manual (texi2html)', '5.9', '5.9'),
  one('doxygen', 'Doxygen manual', '1.9.4', '1.9'),
];

const part = (fraction: number, salt: string) => ({ fraction, salt });
const all = { all: true as const };

export const HOSTED_COPIES: CopySpec[] = [
  // Tomcat: the origin, an exact mirror on the next address, a partial mirror on a host holding
  // several manuals, the previous build on an archive host.
  { id: 'tomcat-origin', work: 'tomcat', source: 'tomcat-10.1.60', host: 'tomcat.example.org', prefix: '/tomcat-10.1-doc/', select: all, note: 'origin' },
  { id: 'tomcat-next', work: 'tomcat', source: 'tomcat-10.1.60', host: 'tomcat-mirror.example.org', prefix: '/tomcat-10.1-doc/', select: all, note: 'exact mirror at the same path, on the next address' },
  { id: 'tomcat-partial', work: 'tomcat', source: 'tomcat-10.1.60', host: 'mirror.example.net', prefix: '/apache/tomcat/10.1/', select: part(0.6, 'tomcat'), note: 'partial mirror under another prefix' },
  { id: 'tomcat-archive', work: 'tomcat', source: 'tomcat-10.1.55', host: 'archive.example.edu', prefix: '/tomcat/10.1.55/docs/', select: all, note: 'lagging copy: an earlier release' },
  // Wireshark: both guides on the origin, the previous release's on the next address, the user's guide on the mirror host.
  { id: 'wsug-origin', work: 'wsug', source: 'wsug-4.0.17', host: 'www.wireshark.example.org', prefix: '/docs/wsug_html_chunked/', select: all, note: 'origin' },
  { id: 'wsdg-origin', work: 'wsdg', source: 'wsdg-4.0.17', host: 'www.wireshark.example.org', prefix: '/docs/wsdg_html_chunked/', select: all, note: 'origin' },
  { id: 'wsug-lagging', work: 'wsug', source: 'wsug-4.0.6', host: 'wireshark-eu.example.net', prefix: '/docs/4.0/wsug/', select: all, note: 'lagging mirror under another prefix, on the next address' },
  { id: 'wsdg-lagging', work: 'wsdg', source: 'wsdg-4.0.6', host: 'wireshark-eu.example.net', prefix: '/docs/4.0/wsdg/', select: part(0.5, 'wsdg'), note: 'lagging partial mirror' },
  { id: 'wsug-mirror', work: 'wsug', source: 'wsug-4.0.17', host: 'mirror.example.net', prefix: '/wireshark/wsug/', select: all, note: 'exact mirror under another prefix' },
  // BIND: the origin on IPv6, the previous build on the mirror host.
  { id: 'bind-origin', work: 'bind', source: 'bind-u3', host: 'bind.example.org', prefix: '/doc/arm/9.18/', select: all, note: 'origin' },
  { id: 'bind-lagging', work: 'bind', source: 'bind-u1', host: 'mirror.example.net', prefix: '/isc/bind9/arm/', select: all, note: 'lagging mirror: the previous build' },
  // libsigc++: the 3.x reference, and the distant 2.x release on an archive host with three copied pages of another manual.
  { id: 'sigc-origin', work: 'sigc', source: 'sigc-3.0', host: 'libsigc.example.org', prefix: '/reference/html/', select: all, note: 'origin' },
  { id: 'sigc-old', work: 'sigc', source: 'sigc-2.0', host: 'oldreleases.example.edu', prefix: '/libsigc++-2.0/reference/', select: all, note: 'distant release on another host' },
  { id: 'wsdg-copied', work: 'wsdg', source: 'wsdg-4.0.17', host: 'oldreleases.example.edu', prefix: '/notes/wireshark/',
    select: { single: [['ChSrcBuildFirstTime.html', 'ChSrcBuildFirstTime.html'], ['ChapterTests.html', 'ChapterTests.html'], ['ChWorksOverview.html', 'ChWorksOverview.html']] }, note: 'three single pages copied with their names' },
  // Shared hosting: small unrelated sites on one address, a partial mirror beside its origin, an exact one on the next address.
  { id: 'jinja', work: 'jinja', source: 'jinja', host: 'jinja.example.com', prefix: '/docs/3.1/', select: all, note: 'origin, on shared hosting' },
  { id: 'jinja-mirror', work: 'jinja', source: 'jinja', host: 'pallets-mirror.example.net', prefix: '/jinja/', select: all, note: 'exact mirror under another prefix, on the hoster\'s next address' },
  { id: 'werkzeug', work: 'werkzeug', source: 'werkzeug', host: 'werkzeug.example.com', prefix: '/en/2.2.x/', select: all, note: 'origin, on shared hosting' },
  { id: 'werkzeug-partial', work: 'werkzeug', source: 'werkzeug', host: 'werkzeug-mirror.example.org', prefix: '/en/2.2.x/', select: part(0.5, 'werkzeug'), note: 'partial mirror at the same path, on the same address' },
  { id: 'flask', work: 'flask', source: 'flask', host: 'flask-tutorial.example.net', prefix: '/docs/', select: part(0.5, 'flask'), note: 'unrelated site (part of the manual)' },
  { id: 'cryptography', work: 'cryptography', source: 'cryptography', host: 'crypto-docs.example.org', prefix: '/en/38.0/', select: all, note: 'unrelated site' },
  { id: 'zsh', work: 'zsh', source: 'zsh', host: 'zsh-guide.example.com', prefix: '/manual/', select: part(0.6, 'zsh'), note: 'unrelated site (part of the manual)' },
  { id: 'doxygen', work: 'doxygen', source: 'doxygen', host: 'doxygen-manual.example.net', prefix: '/manual/', select: all, note: 'unrelated site' },
  // Pages copied onto a blog and a notes site on shared hosting.
  { id: 'blog-tomcat', work: 'tomcat', source: 'tomcat-10.1.60', host: 'blog.example.com', prefix: '/2024/02/', select: { single: [['ssl-howto.html', 'tomcat-ssl-howto.html'], ['realm-howto.html', 'tomcat-realms.html']] }, note: 'two single pages copied' },
  { id: 'blog-flask', work: 'flask', source: 'flask', host: 'blog.example.com', prefix: '/2024/03/', select: { single: [['tutorial/factory.html', 'flask-app-factory.html']] }, note: 'single page copied' },
  { id: 'notes-tomcat', work: 'tomcat', source: 'tomcat-10.1.55', host: 'notes.example.org', prefix: '/tomcat/', select: { single: [['config/http.html', 'config/http.html'], ['config/ajp.html', 'config/ajp.html'], ['class-loader-howto.html', 'class-loader-howto.html']] }, note: 'three single pages of the earlier release copied with their paths' },
];

const SHARED = '198.18.200.14', SHARED_NEXT = '198.18.200.15';

export const HOSTED_HOSTS: WebHost[] = [
  { host: 'tomcat.example.org', ip: '198.18.20.10', role: 'origin server', www: true, https: true, session: 'jsessionid' },
  { host: 'tomcat-mirror.example.org', ip: '198.18.20.11', role: 'mirror on the address next to its origin', session: 'jsessionid' },
  { host: 'mirror.example.net', ip: '198.18.77.5', role: 'mirror host holding several manuals', https: true, server: 'nginx/1.22.1' },
  { host: 'archive.example.edu', ip: '198.18.140.7', role: 'archive of earlier releases' },
  { host: 'www.wireshark.example.org', ip: '198.18.31.20', role: 'origin server', www: true, https: true, server: 'nginx/1.22.1' },
  { host: 'wireshark-eu.example.net', ip: '198.18.31.21', role: 'mirror of earlier releases on the next address', server: 'nginx/1.22.1' },
  { host: 'bind.example.org', ip: '2001:db8:40::10', role: 'origin server (IPv6)', https: true },
  { host: 'libsigc.example.org', ip: '198.18.50.3', role: 'origin server' },
  { host: 'oldreleases.example.edu', ip: '198.18.140.9', role: 'archive of old releases, with a few copied pages' },
  { host: 'jinja.example.com', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed' },
  { host: 'werkzeug.example.com', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed', session: 'PHPSESSID' },
  { host: 'werkzeug-mirror.example.org', ip: SHARED, role: 'shared hosting: a partial mirror beside its origin', server: 'LiteSpeed' },
  { host: 'flask-tutorial.example.net', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed', www: true },
  { host: 'crypto-docs.example.org', ip: SHARED, role: 'shared hosting, its own not-found page', server: 'LiteSpeed', softNotFound: 'own' },
  { host: 'zsh-guide.example.com', ip: SHARED, role: 'shared hosting, the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'doxygen-manual.example.net', ip: SHARED, role: 'shared hosting', server: 'LiteSpeed' },
  { host: 'blog.example.com', ip: SHARED, role: 'shared hosting: a blog, the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock', session: 'PHPSESSID' },
  { host: 'parked-domain.example', ip: SHARED, role: 'parked domain: every path answers the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'coming-soon.example.net', ip: SHARED, role: 'parked domain: every path answers the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'pallets-mirror.example.net', ip: SHARED_NEXT, role: 'shared hosting on the next address: an exact mirror', server: 'LiteSpeed' },
  { host: 'notes.example.org', ip: SHARED_NEXT, role: 'shared hosting on the next address: three copied pages, the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'parked.example.org', ip: SHARED_NEXT, role: 'parked domain on the next address', server: 'LiteSpeed', softNotFound: 'stock' },
];

export const HOSTED_SPEC: WebCrawlSpec = {
  name: 'hosted-manuals', seed: 41, sources: HOSTED_SOURCES, works: HOSTED_WORKS, copies: HOSTED_COPIES, hosts: HOSTED_HOSTS,
  assets: ['tomcat-origin', 'tomcat-next', 'bind-origin', 'bind-lagging', 'jinja', 'jinja-mirror', 'werkzeug', 'sigc-origin', 'sigc-old'],
  rates: DEFAULT_RATES,
};

async function main() {
  const { values } = parseArgs({ options: { sources: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } } });
  const data = process.env.RESEMBLE_DATA;
  const dirs = dataDirs({ sources: values.sources, out: values.out ?? (data ? join(data, HOSTED_SPEC.name) : undefined) });
  const spec = values.seed === undefined ? HOSTED_SPEC : { ...HOSTED_SPEC, seed: Number(values.seed) };
  console.log(JSON.stringify(await buildWebCrawl(spec, dirs), null, 1));
}

if (process.argv[1]?.endsWith('hosted-manuals.ts')) await main();
