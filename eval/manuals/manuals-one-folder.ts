/**
 * A crawl of manuals side by side under one folder of one host (`/manuals/<name>/`: three mdBook
 * books of the Rust documentation, whose sidebar template is heavy, beside the Octave manual and
 * the Python documentation), each also mirrored alone on a host of its own with its links made
 * absolute (bytes differ, text does not). With one template per host and first directory, the
 * shared host's sample was Octave's (first in walk order) and light, so the Rust books were
 * sketched whole there, with their sidebars, while each mirror alone had its sidebar removed; a
 * site per manual root (src/template/sites.ts) gives each manual its own. 1,956 pages, 6 hosts.
 *
 *   node --max-old-space-size=8192 --import tsx eval/manuals/manuals-one-folder.ts [--sources DIR] [--out DIR]
 *
 * Same layout and truth files as build.ts (default output $RESEMBLE_DATA/mixed); score it with
 * `evaluate.ts --data DIR` and read the "copies of one page" figure: see eval/manuals/README.md.
 */
import { buildCrawl } from './build.js';
import type { CopySpec, Work } from './plan.js';
import { SOURCES } from './sources.js';
import { THIRD_SOURCES } from './rust-books.js';
import { FOURTH_SOURCES } from './octave-lilypond-javadoc.js';

const MANUALS = ['rust-book', 'rust-nomicon', 'rust-reference', 'octave-7.3', 'python-3.11-u9'];

export const MIXED_SOURCES = [...THIRD_SOURCES, ...FOURTH_SOURCES, ...SOURCES].filter((s) => MANUALS.includes(s.id));

export const MIXED_WORKS: Work[] = MANUALS.map((id) => ({ id, title: id, releases: { [id]: { release: 'as packaged', line: '1' } } }));

const part = (fraction: number, salt: string) => ({ fraction, salt });
const SELECT: Record<string, CopySpec['select']> = {
  'rust-book': { all: true }, 'rust-nomicon': { all: true }, 'rust-reference': { all: true },
  'octave-7.3': part(0.15, 'mixed-octave'), 'python-3.11-u9': part(0.3, 'mixed-python'),
};

export const MIXED_COPIES: CopySpec[] = MANUALS.flatMap((work): CopySpec[] => [
  { id: `${work}-shared`, work, source: work, host: 'docs.example.org', prefix: `/manuals/${work}/`, select: SELECT[work],
    note: 'origin, beside four other manuals under one folder' },
  { id: `${work}-alone`, work, source: work, host: `${work}.mirror.example.net`, prefix: `/${work}/`, select: SELECT[work], absoluteLinksTo: `${work}-alone`,
    note: 'mirror alone on its host, links made absolute' },
]);

if (process.argv[1]?.endsWith('manuals-one-folder.ts')) await buildCrawl('mixed', MIXED_SOURCES, MIXED_WORKS, MIXED_COPIES);
