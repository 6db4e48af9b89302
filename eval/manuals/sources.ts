/**
 * The published documentation the realistic crawl is built from: Debian documentation packages
 * (bookworm, bookworm-updates, bookworm-security) and npm packages that ship HTML documentation,
 * each at an exact version, with where its HTML lives inside the package and its licence.
 * `fetchSources` downloads them with the ordinary clients (`apt-get download`, `npm pack`) into a
 * cache folder and extracts them; a package already in the cache is not fetched again.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One package at one version, and the folder inside it that holds the HTML pages. */
export interface Source {
  /** Short name used in the plan and the truth files. */
  id: string;
  kind: 'deb' | 'npm';
  package: string;
  version: string;
  /** Folder of the HTML pages, relative to the extracted package. */
  html: string;
  /** Path prefixes (relative to `html`) left out: generated source listings, assets. */
  exclude?: string[];
  licence: string;
  upstream: string;
}

export const SOURCES: Source[] = [
  { id: 'python-3.11-u9', kind: 'deb', package: 'python3.11-doc', version: '3.11.2-6+deb12u9', html: 'usr/share/doc/python3.11/html',
    licence: 'PSF-2.0 (Python documentation licence; code examples 0BSD)', upstream: 'Python 3.11.2 documentation' },
  { id: 'python-3.11-u8', kind: 'deb', package: 'python3.11-doc', version: '3.11.2-6+deb12u8', html: 'usr/share/doc/python3.11/html',
    licence: 'PSF-2.0 (Python documentation licence; code examples 0BSD)', upstream: 'Python 3.11.2 documentation' },
  { id: 'django-3.2-u7', kind: 'deb', package: 'python-django-doc', version: '3:3.2.25-0+deb12u7', html: 'usr/share/doc/python-django-doc/html',
    exclude: ['_modules/'], licence: 'BSD-3-Clause', upstream: 'Django 3.2.25 documentation' },
  { id: 'django-3.2-u3', kind: 'deb', package: 'python-django-doc', version: '3:3.2.25-0+deb12u3', html: 'usr/share/doc/python-django-doc/html',
    exclude: ['_modules/'], licence: 'BSD-3-Clause', upstream: 'Django 3.2.25 documentation' },
  { id: 'git-2.39-u3', kind: 'deb', package: 'git-doc', version: '1:2.39.5-0+deb12u3', html: 'usr/share/doc/git-doc',
    licence: 'GPL-2.0', upstream: 'Git 2.39.5 documentation' },
  { id: 'git-2.39-u2', kind: 'deb', package: 'git-doc', version: '1:2.39.5-0+deb12u2', html: 'usr/share/doc/git-doc',
    licence: 'GPL-2.0', upstream: 'Git 2.39.5 documentation' },
  { id: 'handbook-en', kind: 'deb', package: 'debian-handbook', version: '11.20220922', html: 'usr/share/doc/debian-handbook/html/en-US',
    licence: 'GPL-2.0+ or CC-BY-SA-3.0', upstream: 'The Debian Administrator\'s Handbook, Debian 11, English' },
  { id: 'handbook-ja', kind: 'deb', package: 'debian-handbook', version: '11.20220922', html: 'usr/share/doc/debian-handbook/html/ja-JP',
    licence: 'GPL-2.0+ or CC-BY-SA-3.0', upstream: 'The Debian Administrator\'s Handbook, Debian 11, Japanese' },
  { id: 'handbook-zh', kind: 'deb', package: 'debian-handbook', version: '11.20220922', html: 'usr/share/doc/debian-handbook/html/zh-CN',
    licence: 'GPL-2.0+ or CC-BY-SA-3.0', upstream: 'The Debian Administrator\'s Handbook, Debian 11, Simplified Chinese' },
  { id: 'maint-guide-en', kind: 'deb', package: 'maint-guide', version: '1.2.53', html: 'usr/share/doc/maint-guide/html',
    licence: 'GPL-2.0+', upstream: 'Debian New Maintainers\' Guide, English' },
  { id: 'maint-guide-ja', kind: 'deb', package: 'maint-guide-ja', version: '1.2.53', html: 'usr/share/doc/maint-guide-ja/html',
    licence: 'GPL-2.0+', upstream: 'Debian New Maintainers\' Guide, Japanese' },
  { id: 'maint-guide-zh', kind: 'deb', package: 'maint-guide-zh-cn', version: '1.2.53', html: 'usr/share/doc/maint-guide-zh-cn/html',
    licence: 'GPL-2.0+', upstream: 'Debian New Maintainers\' Guide, Simplified Chinese' },
  { id: 'faq-en', kind: 'deb', package: 'debian-faq', version: '11.1', html: 'usr/share/doc/debian/FAQ',
    licence: 'verbatim copying and translation permitted (Debian FAQ notice)', upstream: 'The Debian GNU/Linux FAQ, English' },
  { id: 'faq-ja', kind: 'deb', package: 'debian-faq-ja', version: '11.1', html: 'usr/share/doc/debian/FAQ/ja',
    licence: 'verbatim copying and translation permitted (Debian FAQ notice)', upstream: 'The Debian GNU/Linux FAQ, Japanese' },
  { id: 'faq-zh', kind: 'deb', package: 'debian-faq-zh-cn', version: '11.1', html: 'usr/share/doc/debian/FAQ/zh-cn',
    licence: 'verbatim copying and translation permitted (Debian FAQ notice)', upstream: 'The Debian GNU/Linux FAQ, Simplified Chinese' },
  { id: 'lua-5.1', kind: 'deb', package: 'lua5.1-doc', version: '5.1.5-9', html: 'usr/share/doc/lua5.1-doc/doc',
    licence: 'MIT', upstream: 'Lua 5.1 Reference Manual' },
  { id: 'lua-5.2', kind: 'deb', package: 'lua5.2-doc', version: '5.2.4-3', html: 'usr/share/doc/lua5.2',
    licence: 'MIT', upstream: 'Lua 5.2 Reference Manual' },
  { id: 'haskell98', kind: 'deb', package: 'haskell98-report', version: '20080907-10', html: 'usr/share/doc/haskell98-report/html',
    licence: 'Haskell 98 Report notice (copying permitted when reproduced in its entirety)', upstream: 'Haskell 98 Language and Libraries: the Revised Report' },
  { id: 'paper-0.12.18', kind: 'npm', package: 'paper', version: '0.12.18', html: 'package/dist/docs',
    licence: 'MIT', upstream: 'Paper.js 0.12.18 reference' },
  { id: 'paper-0.12.11', kind: 'npm', package: 'paper', version: '0.12.11', html: 'package/dist/docs',
    licence: 'MIT', upstream: 'Paper.js 0.12.11 reference' },
  { id: 'paper-0.10.3', kind: 'npm', package: 'paper', version: '0.10.3', html: 'package/dist/docs',
    licence: 'MIT', upstream: 'Paper.js 0.10.3 reference' },
  { id: 'gl-matrix-2.8.1', kind: 'npm', package: 'gl-matrix', version: '2.8.1', html: 'package/docs',
    licence: 'MIT', upstream: 'glMatrix 2.8.1 API documentation' },
  { id: 'gl-matrix-2.4.0', kind: 'npm', package: 'gl-matrix', version: '2.4.0', html: 'package/docs',
    licence: 'MIT', upstream: 'glMatrix 2.4.0 API documentation' },
];

/** A downloaded package: its file in the cache, its SHA-256 and where it was extracted. */
export interface FetchedPackage {
  kind: 'deb' | 'npm';
  package: string;
  version: string;
  file: string;
  sha256: string;
  dir: string;
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9.+-]/g, '_');

/** Takes the cache folder; downloads (when absent) and extracts every package of `sources` (default SOURCES); returns them by `kind:package=version`. */
export function fetchSources(cache: string, log: (line: string) => void = () => {}, sources: readonly Source[] = SOURCES): Map<string, FetchedPackage> {
  const out = new Map<string, FetchedPackage>();
  mkdirSync(join(cache, 'packages'), { recursive: true });
  mkdirSync(join(cache, 'extracted'), { recursive: true });
  for (const s of sources) {
    const key = packageKey(s);
    if (out.has(key)) continue;
    const base = `${safe(s.package)}_${safe(s.version)}`;
    const file = join(cache, 'packages', `${base}.${s.kind === 'deb' ? 'deb' : 'tgz'}`);
    if (!existsSync(file)) {
      log(`fetching ${key}`);
      const tmp = mkdtempSync(join(cache, 'packages', '.fetch-'));
      try {
        if (s.kind === 'deb') {
          try {
            execFileSync('apt-get', ['download', `${s.package}=${s.version}`], { cwd: tmp, stdio: ['ignore', 'ignore', 'inherit'] });
          } catch (e) {
            throw new Error(`apt-get could not download ${key}: run \`apt-get update\` first (a fresh machine's package lists may lack bookworm-security, where the newer builds are), and check that bookworm and bookworm-security are among the apt sources`, { cause: e });
          }
        }
        else execFileSync('npm', ['pack', `${s.package}@${s.version}`, '--silent'], { cwd: tmp, stdio: ['ignore', 'ignore', 'inherit'] });
        const got = readdirSync(tmp).filter((n) => n.endsWith(s.kind === 'deb' ? '.deb' : '.tgz'));
        if (got.length !== 1) throw new Error(`expected one package file for ${key}, got ${got.join(', ') || 'none'}`);
        renameSync(join(tmp, got[0]), file);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
    const dir = join(cache, 'extracted', base);
    if (!existsSync(join(dir, '.done'))) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      if (s.kind === 'deb') execFileSync('dpkg-deb', ['-x', file, dir]);
      else execFileSync('tar', ['-xzf', file, '-C', dir]);
      execFileSync('touch', [join(dir, '.done')]);
    }
    const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
    out.set(key, { kind: s.kind, package: s.package, version: s.version, file: `${base}.${s.kind === 'deb' ? 'deb' : 'tgz'}`, sha256, dir });
  }
  return out;
}

/** The key of a source's package in the map fetchSources returns. */
export const packageKey = (s: Source) => `${s.kind}:${s.package}=${s.version}`;

/** Takes a truth folder, the source ids a crawl used and the fetched packages; writes sources.json (exact versions and digests). */
export function writeSourcesJson(dir: string, used: Iterable<string>, fetched: Map<string, FetchedPackage>, sources: readonly Source[] = SOURCES): void {
  const ids = new Set(used);
  writeFileSync(join(dir, 'sources.json'), JSON.stringify({
    sources: sources.filter((s) => ids.has(s.id)).map((s) => {
      const f = fetched.get(packageKey(s))!;
      return { id: s.id, kind: s.kind, package: s.package, version: s.version, file: f.file, sha256: f.sha256, html: s.html, licence: s.licence, upstream: s.upstream };
    }),
  }, null, 1) + '\n');
}
