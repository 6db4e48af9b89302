// Small hand-drawn web graphs for the collection tests: pages named `host.name`, similar when
// their labels are equal (the trivial clusters are given, as in the paper's figures).
import { collectionsOfGraph, type CollectionOptions, type ReplicatedCollections } from '../../src/collections/find.js';
import { pageGraph, type NamedPageGraph } from '../../src/collections/page-graph.js';
import { HOLE } from '../../src/collections/matrix.js';
import { trivialFromLabels } from '../../src/collections/trivial.js';

export interface Fixture {
  graph: NamedPageGraph;
  names: string[];
  id: (name: string) => number;
  labels: Uint32Array;
}

/** Takes pages (name → similarity label; the host is the name before the first dot) and links by name. */
export function fixture(pages: Record<string, string>, links: Array<[string, string]>): Fixture {
  const names = Object.keys(pages);
  const index = new Map(names.map((n, i) => [n, i]));
  const id = (n: string) => { const i = index.get(n); if (i === undefined) throw new Error(`no page ${n}`); return i; };
  const hosts: string[] = [];
  const hostOf = names.map((n) => { const h = n.split('.')[0]; if (!hosts.includes(h)) hosts.push(h); return hosts.indexOf(h); });
  const g = pageGraph(names.length, hostOf, links.map(([a, b]) => [id(a), id(b)] as [number, number]));
  const labelIds = new Map<string, number>();
  const labels = Uint32Array.from(names, (n) => { const l = pages[n]; if (!labelIds.has(l)) labelIds.set(l, labelIds.size); return labelIds.get(l)!; });
  return { graph: { ...g, urls: names.map((n) => `http://${n.split('.')[0]}.example/${n.split('.').slice(1).join('.')}.html`), hosts: hosts.map((h) => `${h}.example`) }, names, id, labels };
}

/** Runs the cluster growing algorithm on a fixture. */
export function run(f: Fixture, options: CollectionOptions = {}): ReplicatedCollections {
  return collectionsOfGraph(f.graph, trivialFromLabels(f.labels), { minSize: 1, ...options });
}

/** The clusters as page names: one array of rows (collections), each row in column order, null where the row holds no page. */
export function named(f: Fixture, found: ReplicatedCollections): Array<Array<Array<string | null>>> {
  return found.clusters.map((c) => Array.from({ length: c.cardinality }, (_, x) => Array.from(c.pages.subarray(x * c.size, (x + 1) * c.size), (p) => (p === HOLE ? null : f.names[p]))));
}

/** The clusters as page names in a canonical order (columns by the label of their pages, rows by name), for comparing without the order the growth chose. */
export function canonical(f: Fixture, found: ReplicatedCollections): Array<Array<Array<string | null>>> {
  return named(f, found).map((rows) => {
    const labelOf = (c: number) => { for (const r of rows) if (r[c] !== null) return f.labels[f.id(r[c]!)]; return -1; };
    const order = rows[0].map((_n, c) => c).sort((a, b) => labelOf(a) - labelOf(b));
    return rows.map((r) => order.map((c) => r[c])).sort((a, b) => {
      const x = a.find((n) => n !== null)!, y = b.find((n) => n !== null)!;
      return x < y ? -1 : x > y ? 1 : 0;
    });
  });
}
