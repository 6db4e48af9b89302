import { UnionFind } from '../cluster/index.js';
import { repairDefinition5 } from './definition5.js';
import { HOLE, type PageMatrix } from './matrix.js';
import type { PageGraph } from './page-graph.js';
import { commonDirectory, type SortedUrls } from './prefix.js';

/** A similar cluster as reported: the page matrix with what each collection is and where it lives. */
export interface SimilarCluster extends PageMatrix {
  /** The trivial cluster (after splitting) of each column. Column 0 holds the entry pages. */
  readonly trivial: Uint32Array;
  /** The column each column is reached from along links in the largest collection (-1 for column 0 and columns reached otherwise). */
  readonly parent: Int32Array;
  /** True when every collection holds every column (no partial or older copy). */
  readonly complete: boolean;
  /** Collection size below `minSize`: PowerPoint slide shows, break-point fragments (Section 5.1). */
  readonly noise: boolean;
  /** Definition 5 verified on the output between every two collections (clusters that fail are repaired, so always true). */
  readonly similar: boolean;
  /** Per collection: pages it holds. */
  readonly held: Uint32Array;
  /** Per collection: its entry page (DocId): its page in the first column it holds. */
  readonly roots: Uint32Array;
  /** Per collection: the longest URL directory holding all its pages (`http://host/docs/`), '' without URLs. */
  readonly prefixes: readonly string[];
  /** Per collection: crawled pages under its prefix on its host (its own and any others). */
  readonly extents: Uint32Array;
  /**
   * Per collection: crawled pages under its prefix reached from its pages along links either way
   * (its own and those of its copy that have no counterpart): the size of the copy it is part of,
   * as opposed to other manuals in the same folder.
   */
  readonly reach: Uint32Array;
  /** Per collection: links into its pages from pages of other hosts; the copy to keep has most. */
  readonly externalInLinks: Uint32Array;
  /**
   * Per column, 1 for a column joined by path (`joinByPath`): pages no crawled page of their copy
   * links to or from, at one path below each collection's prefix. Absent when there is none.
   */
  readonly byPath?: Uint8Array;
}

/** What the assembly reads besides the rows. */
export interface AssemblyContext {
  /** The crawled pages' graph (no virtual pages). */
  readonly graph: PageGraph;
  readonly urls?: readonly string[];
  readonly sorted?: SortedUrls;
  /** Reverse links of `graph`. */
  readonly inLinks: { offsets: Uint32Array; sources: Uint32Array };
  /** Page → trivial cluster (after splitting), crawled pages only, and the cluster sizes. */
  readonly rid: Uint32Array;
  readonly ridSize: Uint32Array;
  /** Graph with virtual pages (nodes ≥ graph.size) and each node's row root, for connectivity. */
  readonly linked: PageGraph;
  /** Pages in some candidate collection; set by the assembly. */
  inRow?: Uint8Array;
  readonly rowRoot?: Int32Array;
  /** Score per page for entry pages (in-links from other hosts by default). */
  readonly rootScore: ArrayLike<number>;
  readonly minSize: number;
  readonly minShare: number;
  /** Page → 1 for HTML, 0 for other text, when known (`SimilarPages.kinds`): only HTML pages in no collection count against a share. */
  readonly kinds?: Uint8Array;
}

/** A collection being assembled: its host, listed pages, and the virtual pages it was grown through. */
interface Row {
  host: number;
  pages: number[];
  virtual: number[];
  prefix: string;
  extent: number;
}

function rowPlace(ctx: AssemblyContext, pages: number[]): { prefix: string; extent: number } {
  if (!ctx.urls || !ctx.sorted) return { prefix: '', extent: pages.length };
  const prefix = commonDirectory(pages.map((p) => ctx.urls![p]));
  return { prefix, extent: Math.max(pages.length, ctx.sorted.count(prefix)) };
}

/**
 * Takes the rows grown over the links (a root per node) and the context; returns the similar
 * clusters. Rows of two or more pages in replicated trivial clusters are the candidate
 * collections. Two collections are copies of each other when they share at least two columns and
 * at least `minShare` of the smaller one, counting its pages and the crawled (HTML) pages under
 * its prefix that are in no collection: a translation that shares a few untranslated pages with the
 * original, or a chapter that shares a page with another manual, stays apart, while a partial copy
 * (all of its pages shared) or a fragment of one joins.
 * Copies are gathered by union-find into clusters; each cluster's columns are the trivial clusters
 * two or more of its collections hold. Each cluster is then made to meet the invariants.
 */
export function assembleFromRows(ctx: AssemblyContext): SimilarCluster[] {
  const n = ctx.graph.size;
  const root = ctx.rowRoot!;
  const byRoot = new Map<number, Row>();
  for (let p = 0; p < n; p++) {
    if (ctx.ridSize[ctx.rid[p]] < 2) continue;
    let row = byRoot.get(root[p]);
    if (!row) byRoot.set(root[p], (row = { host: ctx.graph.hostOf[p], pages: [], virtual: [], prefix: '', extent: 0 }));
    row.pages.push(p);
  }
  for (let v = n; v < ctx.linked.size; v++) byRoot.get(root[v])?.virtual.push(v);
  const rows = [...byRoot.values()].filter((r) => r.pages.length >= 2);
  for (const r of rows) Object.assign(r, rowPlace(ctx, r.pages));
  const rowOf = new Int32Array(n).fill(-1);
  rows.forEach((r, x) => { for (const p of r.pages) rowOf[p] = x; });
  ctx.inRow = Uint8Array.from(rowOf, (x) => (x >= 0 ? 1 : 0));
  // What a collection is measured against: its pages and the pages under its prefix that are in no
  // collection (a fragment of a copy is not diluted by the copy's other fragments; a few replicated
  // pages of an unreplicated manual are). When the kinds are known, only HTML pages count there:
  // the sources, scripts and stylesheets a manual ships beside its pages, that no link grows a
  // collection through, are not pages of an unreplicated manual.
  const weight = rows.map((r) => r.pages.length);
  if (ctx.sorted) {
    const alone = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const p = ctx.sorted.order[i];
      alone[i + 1] = alone[i] + (rowOf[p] < 0 && (!ctx.kinds || ctx.kinds[p] === 1) ? 1 : 0);
    }
    rows.forEach((r, x) => { const { lo, hi } = ctx.sorted!.range(r.prefix); weight[x] += alone[hi] - alone[lo]; });
  }

  // Columns shared by two rows, counted over replicated trivial clusters.
  const byColumn = new Map<number, number[]>();
  for (let p = 0; p < n; p++) {
    if (rowOf[p] < 0) continue;
    let list = byColumn.get(ctx.rid[p]);
    if (!list) byColumn.set(ctx.rid[p], (list = []));
    list.push(rowOf[p]);
  }
  const shared = new Map<number, number>();
  const R = rows.length;
  for (const list of byColumn.values()) {
    if (list.length < 2) continue;
    const distinct = [...new Set(list)].sort((a, b) => a - b);
    for (let i = 0; i < distinct.length; i++) for (let j = i + 1; j < distinct.length; j++) {
      const key = distinct[i] * R + distinct[j];
      shared.set(key, (shared.get(key) ?? 0) + 1);
    }
  }
  const uf = new UnionFind(R);
  for (const [key, count] of shared) {
    const x = Math.floor(key / R), y = key % R;
    if (count >= 2 && count >= ctx.minShare * Math.min(weight[x], weight[y])) uf.union(x, y);
  }
  const groups = new Map<number, number[]>();
  for (let x = 0; x < R; x++) {
    const g = uf.find(x);
    let list = groups.get(g);
    if (!list) groups.set(g, (list = []));
    list.push(x);
  }
  const out: SimilarCluster[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    out.push(...finalize(ctx, members.map((x) => rows[x])));
  }
  return out;
}

/**
 * Takes clusters grown by the paper's algorithm (full matrices, one row per copy) and the context;
 * returns them with the same checks as the mixed growth.
 */
export function assembleFromMatrices(ctx: AssemblyContext, matrices: readonly PageMatrix[]): SimilarCluster[] {
  const out: SimilarCluster[] = [];
  ctx.inRow = new Uint8Array(ctx.graph.size);
  for (const m of matrices) for (const p of m.pages) if (p !== HOLE) ctx.inRow[p] = 1;
  for (const m of matrices) {
    const rows: Row[] = [];
    for (let x = 0; x < m.cardinality; x++) {
      const pages = Array.from(m.pages.subarray(x * m.size, (x + 1) * m.size)).filter((p) => p !== HOLE);
      rows.push({ host: ctx.graph.hostOf[pages[0]], pages, virtual: [], ...rowPlace(ctx, pages) });
    }
    out.push(...finalize(ctx, rows, 1));
  }
  return out;
}

/**
 * The pages a row reaches along links either way (on the graph with virtual pages): through its own
 * pages, its virtual pages, and the pages of its host under its prefix that are in no collection
 * (the pages of its copy that no other copy holds). Calls `meet` for every page reached.
 */
function walk(ctx: AssemblyContext, row: Row, from: readonly number[], meet: (q: number) => boolean): void {
  const g = ctx.linked, n = ctx.graph.size, urls = ctx.urls;
  const own = new Set<number>([...row.pages, ...row.virtual]);
  const free = (q: number) => q < n && !ctx.inRow![q] && g.hostOf[q] === row.host && (!urls || urls[q].startsWith(row.prefix));
  // Virtual pages have no reverse links in `inLinks`: the row's pages linking to them, kept here.
  const intoVirtual = new Map<number, number[]>();
  for (const p of row.pages) {
    for (let e = g.linkOffsets[p]; e < g.linkOffsets[p + 1]; e++) {
      const v = g.linkTargets[e];
      if (v >= n) (intoVirtual.get(v) ?? intoVirtual.set(v, []).get(v)!).push(p);
    }
  }
  const seen = new Set(from), queue = [...from];
  const step = (q: number) => {
    if (seen.has(q)) return;
    seen.add(q);
    if (own.has(q) || free(q)) { if (meet(q)) queue.push(q); }
    else meet(q);
  };
  while (queue.length) {
    const p = queue.pop()!;
    for (let e = g.linkOffsets[p]; e < g.linkOffsets[p + 1]; e++) step(g.linkTargets[e]);
    if (p < n) for (let e = ctx.inLinks.offsets[p]; e < ctx.inLinks.offsets[p + 1]; e++) step(ctx.inLinks.sources[e]);
    else for (const q of intoVirtual.get(p) ?? []) step(q);
  }
}

/**
 * Rows of one cluster on one host that hold no column in common, whose prefixes nest, and that
 * reach each other along links (through pages of the copy no other copy holds) are one copy: its
 * parts were grown apart because the links between them are held by that copy only (the other
 * copies lack the pages in between). Takes the rows; returns them with such parts joined
 * (greedily, in order, while their columns stay disjoint).
 */
function joinLinkedRows(ctx: AssemblyContext, rows: Row[]): Row[] {
  const owner = new Map<number, number>();
  rows.forEach((r, x) => { for (const p of r.pages) owner.set(p, x); });
  const uf = new UnionFind(rows.length);
  const columns = rows.map((r) => new Set(r.pages.map((p) => ctx.rid[p])));
  let joined = false;
  rows.forEach((r, x) => {
    const met = new Set<number>();
    walk(ctx, r, r.pages, (q) => {
      const y = owner.get(q);
      if (y !== undefined && y !== x) met.add(y);
      return y === x || y === undefined;
    });
    for (const y of met) {
      const other = rows[y];
      if (other.host !== r.host || !(other.prefix.startsWith(r.prefix) || r.prefix.startsWith(other.prefix))) continue;
      const a = uf.find(x), b = uf.find(y);
      if (a === b) continue;
      let clash = false;
      for (const c of columns[a]) if (columns[b].has(c)) { clash = true; break; }
      if (clash) continue;
      uf.union(a, b);
      const root = uf.find(a), gone = root === a ? b : a;
      for (const c of columns[gone]) columns[root].add(c);
      joined = true;
    }
  });
  if (!joined) return rows;
  const groups = new Map<number, Row>();
  rows.forEach((r, x) => {
    const k = uf.find(x), g0 = groups.get(k);
    if (!g0) groups.set(k, { ...r, pages: [...r.pages], virtual: [...r.virtual] });
    else { g0.pages.push(...r.pages); g0.virtual.push(...r.virtual); }
  });
  return [...groups.values()].map((r) => ({ ...r, ...rowPlace(ctx, r.pages) }));
}

/** A row's connected parts: its pages grouped by what they reach (see `walk`). */
function connectedParts(ctx: AssemblyContext, row: Row): number[][] {
  const index = new Map(row.pages.map((p, i) => [p, i]));
  const part = new Int32Array(row.pages.length).fill(-1);
  const parts: number[][] = [];
  row.pages.forEach((p, i) => {
    if (part[i] >= 0) return;
    const k = parts.length, list = [p];
    part[i] = k;
    parts.push(list);
    walk(ctx, row, [p], (q) => {
      const j = index.get(q);
      if (j !== undefined && part[j] < 0) { part[j] = k; list.push(q); }
      return true;
    });
  });
  return parts;
}

/**
 * Makes one cluster meet the invariants (after joining the parts of one copy, see
 * `joinLinkedRows`), repeating until nothing changes: every column is held by
 * two collections or more; every collection holds `minRowPages` pages or more and is link-connected
 * on its host (a collection in several parts is split into them); Definition 5 holds between every
 * two collections (pages are taken out where it fails); collections sharing no column are separate
 * clusters. Returns the clusters left (none when nothing holds).
 */
function finalize(ctx: AssemblyContext, start: Row[], minRowPages = 2): SimilarCluster[] {
  let rows = joinLinkedRows(ctx, start.map((r) => ({ ...r, pages: [...r.pages] })));
  for (let pass = 0; ; pass++) {
    let changed = false;
    // Columns held by two rows or more.
    const count = new Map<number, number>();
    for (const r of rows) for (const p of r.pages) count.set(ctx.rid[p], (count.get(ctx.rid[p]) ?? 0) + 1);
    for (const r of rows) {
      const kept = r.pages.filter((p) => count.get(ctx.rid[p])! >= 2);
      if (kept.length !== r.pages.length) { r.pages = kept; changed = true; }
    }
    // Connected rows of enough pages.
    const next: Row[] = [];
    for (const r of rows) {
      const parts = r.pages.length >= minRowPages ? connectedParts(ctx, r) : [];
      if (parts.length !== 1) changed = true;
      for (const part of parts) {
        if (part.length < minRowPages) continue;
        next.push(parts.length === 1 ? r : { host: r.host, pages: part, virtual: r.virtual, ...rowPlace(ctx, part) });
      }
    }
    rows = next;
    if (rows.length < 2) return [];
    if (changed) continue;
    // Definition 5 on the matrix; pages taken out start another pass.
    const m = toMatrix(ctx, rows);
    const { pages, removed } = repairDefinition5(m.matrix, ctx.inLinks);
    if (removed > 0) {
      rows = rows.map((r, x) => ({ ...r, pages: m.columns.map((_c, c) => pages[x * m.columns.length + c]).filter((p) => p !== HOLE) }));
      continue;
    }
    // Rows that share no column with each other are separate clusters.
    const uf = new UnionFind(rows.length);
    const firstRow = new Map<number, number>();
    rows.forEach((r, x) => { for (const p of r.pages) { const c = ctx.rid[p], f = firstRow.get(c); if (f === undefined) firstRow.set(c, x); else uf.union(f, x); } });
    const groups = new Map<number, Row[]>();
    rows.forEach((r, x) => { const g = uf.find(x); (groups.get(g) ?? groups.set(g, []).get(g)!).push(r); });
    if (groups.size > 1) return [...groups.values()].flatMap((g) => (g.length >= 2 ? finalize(ctx, g, minRowPages) : []));
    for (const r of rows) Object.assign(r, rowPlace(ctx, r.pages));
    return [pack(ctx, rows, m)];
  }
}

function minOf(list: readonly number[]): number {
  let m = Infinity;
  for (const v of list) if (v < m) m = v;
  return m;
}

/** Takes rows; returns the page matrix with columns ordered (entry column first, then along links) and rows by first page. */
function toMatrix(ctx: AssemblyContext, rowsIn: Row[]): { matrix: PageMatrix; columns: number[]; parent: Int32Array; rows: Row[] } {
  const rows = rowsIn;
  rows.sort((a, b) => minOf(a.pages) - minOf(b.pages));
  const colRows = new Map<number, number>(), colScore = new Map<number, number>(), colFirst = new Map<number, number>();
  for (const r of rows) {
    for (const p of r.pages) {
      const c = ctx.rid[p];
      colRows.set(c, (colRows.get(c) ?? 0) + 1);
      colScore.set(c, (colScore.get(c) ?? 0) + ctx.rootScore[p]);
      colFirst.set(c, Math.min(colFirst.get(c) ?? Infinity, p));
    }
  }
  const depth = (p: number) => (ctx.urls ? ctx.urls[p].split('/').length : 0);
  const colDepth = new Map<number, number>();
  for (const r of rows) for (const p of r.pages) colDepth.set(ctx.rid[p], Math.min(colDepth.get(ctx.rid[p]) ?? Infinity, depth(p)));
  // The entry column: most in-links from other sites, held by most copies, shallowest URL, first page.
  let entry = -1;
  for (const c of colRows.keys()) {
    if (entry < 0) { entry = c; continue; }
    const better = colScore.get(c)! !== colScore.get(entry)! ? colScore.get(c)! > colScore.get(entry)!
      : colRows.get(c)! !== colRows.get(entry)! ? colRows.get(c)! > colRows.get(entry)!
      : colDepth.get(c)! !== colDepth.get(entry)! ? colDepth.get(c)! < colDepth.get(entry)!
      : colFirst.get(c)! < colFirst.get(entry)!;
    if (better) entry = c;
  }
  // Breadth-first from the entry column along the links of the largest row holding it.
  let guide: Row | undefined;
  for (const r of rows) if ((!guide || r.pages.length > guide.pages.length) && r.pages.some((p) => ctx.rid[p] === entry)) guide = r;
  if (!guide) throw new Error('assembly: no row holds the entry column');
  const inGuide = new Map(guide.pages.map((p) => [p, ctx.rid[p]]));
  const columns: number[] = [], parentOf = new Map<number, number>();
  const seen = new Set<number>();
  const start = guide.pages.find((p) => ctx.rid[p] === entry)!;
  const queue: number[] = [start];
  seen.add(entry); columns.push(entry); parentOf.set(entry, -1);
  const g = ctx.graph;
  for (let h = 0; h < queue.length; h++) {
    const p = queue[h];
    for (let e = g.linkOffsets[p]; e < g.linkOffsets[p + 1]; e++) {
      const q = g.linkTargets[e], c = inGuide.get(q);
      if (c === undefined || seen.has(c)) continue;
      seen.add(c); columns.push(c); parentOf.set(c, ctx.rid[p]); queue.push(q);
    }
  }
  const rest = [...colRows.keys()].filter((c) => !seen.has(c)).sort((a, b) => colFirst.get(a)! - colFirst.get(b)!);
  for (const c of rest) { columns.push(c); parentOf.set(c, -1); }
  const index = new Map(columns.map((c, i) => [c, i]));
  const size = columns.length;
  const pages = new Uint32Array(rows.length * size).fill(HOLE);
  rows.forEach((r, x) => { for (const p of r.pages) pages[x * size + index.get(ctx.rid[p])!] = p; });
  const parent = Int32Array.from(columns, (c) => { const pc = parentOf.get(c)!; return pc < 0 ? -1 : index.get(pc)!; });
  return { matrix: { cardinality: rows.length, size, pages }, columns, parent, rows };
}

function pack(ctx: AssemblyContext, rows: Row[], m: ReturnType<typeof toMatrix>): SimilarCluster {
  const { matrix, columns, parent } = m;
  const k = matrix.cardinality, size = matrix.size;
  const held = new Uint32Array(k), roots = new Uint32Array(k), external = new Uint32Array(k), extents = new Uint32Array(k);
  const g = ctx.graph, inLinks = ctx.inLinks;
  let complete = true;
  for (let x = 0; x < k; x++) {
    roots[x] = HOLE;
    for (let c = 0; c < size; c++) {
      const q = matrix.pages[x * size + c];
      if (q === HOLE) { complete = false; continue; }
      held[x]++;
      if (roots[x] === HOLE) roots[x] = q;
      for (let e = inLinks.offsets[q]; e < inLinks.offsets[q + 1]; e++) if (g.hostOf[inLinks.sources[e]] !== g.hostOf[q]) external[x]++;
    }
    extents[x] = rows[x].extent;
  }
  const reach = Uint32Array.from(rows, (r) => reachUnder(ctx, r));
  return {
    ...matrix, trivial: Uint32Array.from(columns), parent, complete, noise: size < ctx.minSize, similar: true,
    held, roots, prefixes: rows.map((r) => r.prefix), extents, reach, externalInLinks: external,
  };
}

/** Pages under a row's prefix reached from its pages along links either way, through pages under the prefix. */
function reachUnder(ctx: AssemblyContext, row: Row): number {
  if (!ctx.urls) return row.pages.length;
  const g = ctx.graph, urls = ctx.urls, prefix = row.prefix;
  const seen = new Set(row.pages), queue = [...row.pages];
  const visit = (q: number) => { if (!seen.has(q) && urls[q].startsWith(prefix)) { seen.add(q); queue.push(q); } };
  while (queue.length) {
    const p = queue.pop()!;
    for (let e = g.linkOffsets[p]; e < g.linkOffsets[p + 1]; e++) visit(g.linkTargets[e]);
    for (let e = ctx.inLinks.offsets[p]; e < ctx.inLinks.offsets[p + 1]; e++) visit(ctx.inLinks.sources[e]);
  }
  return seen.size;
}
