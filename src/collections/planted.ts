import { intOption, numberOption, rejectUnknown } from '../errors.js';
import { Random } from '../random.js';
import { pageGraph, type NamedPageGraph } from './page-graph.js';

/** Options of `plantedCrawl`; every one has a default. */
export interface PlantedOptions {
  /** Replicated collections planted. Default 5. */
  collections?: number;
  /** Full copies of each collection (the primary included), each on its own host. Default 4. */
  copies?: number;
  /** Pages per collection. Default 30. */
  pages?: number;
  /** Partial mirrors per collection: a copy of the first pages whose links to the rest point at the primary (Figure 10). Default 0. */
  partialMirrors?: number;
  /** Fraction of the pages a partial mirror holds. Default 0.5. */
  partialFraction?: number;
  /** Copies per collection that lag behind: a few pages with one line edited and a few extra links missing. Default 1. */
  laggingCopies?: number;
  /** Pages edited in a lagging copy. Default 2. */
  editedPages?: number;
  /** Extra links per page inside a collection, beyond the tree and the link back to the root. Default 1. */
  extraLinks?: number;
  /** Unrelated pages on their own hosts, linking at random (some are copies of each other). Default 200. */
  noisePages?: number;
  /** Text lines per page. Default 12. */
  lines?: number;
  /** Collections hosted per mirror host (under different paths). Default 2. */
  collectionsPerHost?: number;
  /** Seed of the generator (Mulberry32). Default 0x636f6c6c ('coll'). */
  seed?: number;
}

/** A generated crawl with its answer key. */
export interface PlantedCrawl extends NamedPageGraph {
  /** Page texts (plain text, one line per text line). */
  readonly texts: string[];
  /** DocId → planted collection, or -1 for noise. */
  readonly collection: Int32Array;
  /** DocId → page of its collection's template (similar pages share it), or -1 for noise. */
  readonly template: Int32Array;
  /** DocId → copy (0 = primary, then full copies, then partial mirrors), or -1 for noise. */
  readonly copy: Int32Array;
  /** What was planted per collection. */
  readonly planted: ReadonlyArray<{ pages: number; fullCopies: number; partialCopies: number; partialPages: number }>;
}

/**
 * Takes the generator options; returns a crawl with planted replicated collections: each a tree of
 * pages (every page also links back to its root, plus random extra links), copied in full on several
 * hosts, some copies lagging (a few pages edited, a few extra links missing), some partial mirrors,
 * and noise pages linking at random, some to collection roots (in-links from other sites).
 */
export function plantedCrawl(options: PlantedOptions = {}): PlantedCrawl {
  rejectUnknown(options, ['collections', 'copies', 'pages', 'partialMirrors', 'partialFraction', 'laggingCopies', 'editedPages', 'extraLinks', 'noisePages', 'lines', 'collectionsPerHost', 'seed'], 'plantedCrawl');
  const C = intOption('collections', options.collections, 5, 0, 1 << 16);
  const copies = intOption('copies', options.copies, 4, 1, 1 << 12);
  const P = intOption('pages', options.pages, 30, 1, 1 << 16);
  const partials = intOption('partialMirrors', options.partialMirrors, 0, 0, 1 << 12);
  const fraction = numberOption('partialFraction', options.partialFraction, 0.5, 0, 1);
  const lagging = intOption('laggingCopies', options.laggingCopies, 1, 0, copies);
  const edited = intOption('editedPages', options.editedPages, 2, 0, P);
  const extra = intOption('extraLinks', options.extraLinks, 1, 0, 64);
  const noise = intOption('noisePages', options.noisePages, 200, 0, 1 << 24);
  const L = intOption('lines', options.lines, 12, 1, 1024);
  const perHost = intOption('collectionsPerHost', options.collectionsPerHost, 2, 1, 1 << 16);
  const rng = new Random(intOption('seed', options.seed, 0x636f6c6c, 0, 2 ** 32 - 1));

  const word = () => rng.int(36 ** 5).toString(36);
  const line = () => { const w: string[] = []; const k = 5 + rng.int(5); for (let i = 0; i < k; i++) w.push(word()); return w.join(' '); };
  const textOf = () => { const ls: string[] = []; for (let i = 0; i < L; i++) ls.push(line()); return ls; };

  const urls: string[] = [], texts: string[] = [], hostOfList: number[] = [];
  const hosts: string[] = [], hostId = new Map<string, number>();
  const collection: number[] = [], template: number[] = [], copyOf: number[] = [];
  const links: Array<[number, number]> = [];
  const addPage = (host: string, path: string, text: string, c: number, t: number, x: number) => {
    let h = hostId.get(host);
    if (h === undefined) { h = hosts.length; hostId.set(host, h); hosts.push(host); }
    urls.push(`http://${host}${path}`); texts.push(text); hostOfList.push(h);
    collection.push(c); template.push(t); copyOf.push(x);
    return urls.length - 1;
  };
  const planted: Array<{ pages: number; fullCopies: number; partialCopies: number; partialPages: number }> = [];
  const roots: number[] = [];

  for (let c = 0; c < C; c++) {
    // The template: a tree (parent before child, so any prefix of the pages is connected), the
    // link back to the root, and random extra links.
    const parent = new Int32Array(P).fill(-1);
    for (let j = 1; j < P; j++) parent[j] = j - 1 - rng.int(Math.min(j, 6));
    const tLinks: Array<[number, number]> = [];
    for (let j = 1; j < P; j++) { tLinks.push([parent[j], j]); tLinks.push([j, 0]); }
    const extraFrom = tLinks.length;
    for (let j = 0; j < P; j++) for (let e = 0; e < extra; e++) tLinks.push([j, rng.int(P)]);
    const text = Array.from({ length: P }, textOf);
    const m = Math.max(1, Math.round(P * fraction));
    const base: number[][] = [];
    for (let x = 0; x < copies + partials; x++) {
      const partial = x >= copies;
      const host = x === 0 ? `www.coll${c}.example` : `mirror${x}-${Math.floor(c / perHost)}.example`;
      const dir = x === 0 ? '/docs/' : `/coll${c}/`;
      const isLagging = x >= copies - lagging && x < copies && x > 0;
      const editedSet = new Set<number>();
      if (isLagging) while (editedSet.size < Math.min(edited, P)) editedSet.add(rng.int(P));
      const ids: number[] = [];
      for (let j = 0; j < (partial ? m : P); j++) {
        let lines = text[j];
        if (editedSet.has(j)) { lines = lines.slice(); lines[rng.int(L)] = line(); }
        ids.push(addPage(host, `${dir}${j === 0 ? 'index' : `p${j}`}.html`, lines.join('\n'), c, j, x));
      }
      base.push(ids);
      for (let e = 0; e < tLinks.length; e++) {
        const [from, to] = tLinks[e];
        if (from >= ids.length) continue;
        // A lagging copy misses some extra links (never a tree link, which keeps it a copy).
        if (isLagging && e >= extraFrom && rng.next() < 0.3) continue;
        // A partial mirror's links to pages it does not hold point at the primary.
        links.push([ids[from], to < ids.length ? ids[to] : base[0][to]]);
      }
    }
    roots.push(base[0][0]);
    for (let x = 1; x < copies + partials; x++) roots.push(base[x][0]);
    planted.push({ pages: P, fullCopies: copies, partialCopies: partials, partialPages: partials > 0 ? m : 0 });
  }

  const noiseHosts = Math.max(1, Math.ceil(noise / 20));
  const first = urls.length;
  for (let i = 0; i < noise; i++) {
    // One noise page in ten repeats an earlier one on another host: small clusters that are not collections.
    const copyFrom = i > 0 && rng.next() < 0.1 ? first + rng.int(i) : -1;
    const text = copyFrom >= 0 ? texts[copyFrom] : textOf().join('\n');
    addPage(`noise${i % noiseHosts}.example`, `/n${i}.html`, text, -1, -1, -1);
  }
  for (let i = 0; i < noise; i++) {
    for (let e = 0; e < 3; e++) links.push([first + i, first + rng.int(noise)]);
    if (roots.length && rng.next() < 0.5) {
      // Primaries (the first root of each collection) get most of the links from other sites.
      const k = rng.next() < 0.6 ? roots[rng.int(C) * (copies + partials)] : roots[rng.int(roots.length)];
      links.push([first + i, k]);
    }
  }
  const g = pageGraph(urls.length, hostOfList, links);
  return {
    ...g, urls, hosts, texts,
    collection: Int32Array.from(collection), template: Int32Array.from(template), copy: Int32Array.from(copyOf), planted,
  };
}
