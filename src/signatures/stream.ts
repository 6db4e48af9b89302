// Signatures from a stream: while the crawl is read, each batch's pages become bags of words (on
// the page pool) and their out-links are kept for the web graph; the pages themselves are let go
// batch by batch. What is held is the bags (distinct words and counts per page), the URLs and the
// links, and with --evaluate each page's word-shingle values.
//
// Content mode ('main', the CLI's default) learns each site's template from a sample of its first
// pages, as `crawlBags` does (learnTemplates), and a page's bag holds its content tokens against
// that template: which template a page gets is known only once the whole crawl is read. So HTML
// pages are also written to a spill file as they stream by; afterwards the sampled pages are read
// back to learn the templates, then every HTML page is read back, window by window, for its
// content tokens. The page cache holds the spill file, not the heap.
import { optionError, rejectUnknown } from '../errors.js';
import type { ReadError } from '../graph/document.js';
import { hostOfUrl } from '../graph/url.js';
import type { WebGraph } from '../graph/web-graph.js';
import { blockFingerprints, NO_TABLE, WHOLE_PAGE, type BlockFingerprints } from '../sketch/content.js';
import { DEFAULT_W } from '../sketch/options.js';
import type { BagsOfWords } from './bags.js';
import { firstCopies } from './first-copies.js';
import { shingleSetsFromValues, type ShingleSets } from './pair-evaluation.js';
import { signatureParams, type SignatureOptions } from './options.js';
import { computeSignatures, type Signatures } from './signatures.js';
import { resolveTemplateOptions, siteTemplate, tableOfSite, templateTable, type LearnedTemplates, type SiteTemplate, type TemplateOptions } from '../template/learn.js';
import { sectionsOf } from '../template/sites.js';
import { STUB_MAX_BYTES, isRedirectStub } from '../template/stub.js';
import { FINGERPRINTS, resultOf, runPageJob, SHINGLES, work, type PageJobResult, type PageWork } from '../stream/page-jobs.js';
import { createPool } from '../stream/pool-node.js';
import { BAGS, CONTENT_BAGS, type BagRows } from './page-columns.js';
import { graphOf, runPageJobOn, streamPages, type PageStream, type StreamReadOptions } from '../stream/page-stream.js';
import { workerCount } from '../stream/sketch-crawl.js';
import { defaultSpillDir, readSpilled, readSpilledPacked, spillWindows, type Spill } from '../stream/spill.js';
import type { Inputs } from '../io/pages.js';

/** How `readForSignatures` reads the crawl. */
export interface SignatureStreamOptions extends StreamReadOptions {
  /** 'page' (default): every canonical token of each page. 'main': HTML pages' content tokens, their site's template left out where heavy (as `crawlBags`). */
  content?: 'page' | 'main';
  /** content 'main': how templates are learnt. */
  templates?: TemplateOptions;
  /** Also compute the exact word-shingle sets (`crawlShingleSets`), of this width (true: the core's, 8). Default false. */
  shingleSets?: boolean | number;
  /** content 'main': folder for the spill file of HTML pages (default: the system's temporary folder). */
  spillDir?: string;
  /** Called when a stage after reading starts or moves on (content 'main': templates, content tokens). */
  onStage?: (stage: string, text: string) => void;
}

/** What `readForSignatures` returns. */
export interface SignatureInput {
  stream: PageStream;
  graph: WebGraph;
  bags: BagsOfWords;
  /** The exact shingle sets, with `shingleSets`. */
  sets?: ShingleSets;
  /** content 'main': the templates learnt (tables by HTML page, in HTML page order). */
  templates?: LearnedTemplates;
}

/** Takes parts of bags (each a CSR over some pages) and, per page, which part and row it comes from; returns one BagsOfWords. */
function assembleBags(n: number, parts: readonly BagRows[], partOf: Uint32Array, rowOf: Uint32Array): BagsOfWords {
  const offsets = new Uint32Array(n + 1);
  for (let d = 0; d < n; d++) {
    const p = parts[partOf[d]], r = rowOf[d];
    offsets[d + 1] = offsets[d] + p.offsets[r + 1] - p.offsets[r];
  }
  const terms = new BigUint64Array(offsets[n]), counts = new Uint32Array(offsets[n]), norms = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    const p = parts[partOf[d]], r = rowOf[d];
    terms.set(p.terms.subarray(p.offsets[r], p.offsets[r + 1]), offsets[d]);
    counts.set(p.counts.subarray(p.offsets[r], p.offsets[r + 1]), offsets[d]);
    norms[d] = p.norms[r];
  }
  return { size: n, offsets, terms, counts, norms, words: new Uint32Array(terms.buffer, terms.byteOffset, terms.length * 2) };
}

/** Takes block fingerprints of consecutive windows of pages; returns them as one set. */
function concatBlocks(parts: readonly BlockFingerprints[]): BlockFingerprints {
  let n = 0, total = 0;
  for (const p of parts) { n += p.offsets.length - 1; total += p.values.length; }
  const values = new BigUint64Array(total), offsets = new Uint32Array(n + 1), tokens = new Uint32Array(total), links = new Uint32Array(total);
  let d = 0, at = 0;
  for (const p of parts) {
    values.set(p.values, at); tokens.set(p.tokens, at); links.set(p.links, at);
    for (let i = 1; i < p.offsets.length; i++) offsets[d + i] = at + p.offsets[i];
    d += p.offsets.length - 1;
    at += p.values.length;
  }
  return { values, offsets, tokens, links };
}

/**
 * learnTemplates over the HTML pages of a spilled crawl, reading back only the sampled pages:
 * page k of the learning is DocId `ids[k]`, its fingerprint `fps[k]` (fingerprintMany of its bytes,
 * computed as it streamed; `stubs[k]` 1 for a redirect stub, never sampled). The same groups,
 * samples, tables and statistics as `learnTemplates(pages, hosts, options, sections)`.
 */
export function learnTemplatesFromSpill(spill: Spill, ids: Uint32Array, fps: BigUint64Array, hostOf: readonly string[], sectionOf: readonly string[], options?: TemplateOptions, stubs?: Uint8Array): LearnedTemplates {
  const o = resolveTemplateOptions(options);
  const n = ids.length;
  const byHost = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const l = byHost.get(hostOf[i]);
    if (l) l.push(i); else byHost.set(hostOf[i], [i]);
  }
  const groups: Array<[string, number[]]> = [];
  for (const [host, list] of byHost) {
    groups.push([host, list]);
    const bySection = new Map<string, number[]>();
    for (const d of list) { const l = bySection.get(sectionOf[d]); if (l) l.push(d); else bySection.set(sectionOf[d], [d]); }
    if (bySection.size > 1) for (const [sec, l] of bySection) if (l.length >= o.trustAfter) groups.push([`${host}/${sec}`, l]);
  }
  // Each group's first pages, identical bytes once, until `sample` distinct ones.
  const samples: number[][] = groups.map(([, list]) => {
    const picked: number[] = [];
    const seen = new Set<bigint>();
    for (let at = 0; at < list.length && picked.length < o.sample; at++) {
      const f = fps[list[at]];
      if (!seen.has(f) && stubs?.[list[at]] !== 1) { seen.add(f); picked.push(list[at]); }
    }
    return picked;
  });
  const row = new Map<number, number>();
  const sampled: number[] = [];
  for (const picked of samples) for (const d of picked) if (!row.has(d)) { row.set(d, sampled.length); sampled.push(d); }
  // Block fingerprints of the sampled pages, read back a window at a time.
  const parts: BlockFingerprints[] = [];
  const sampledIds = Uint32Array.from(sampled, (k) => ids[k]);
  for (let i = 0; i < sampledIds.length;) {
    let j = i, bytes = 0;
    while (j < sampledIds.length && (j === i || bytes + spill.length[sampledIds[j]] <= 2 << 20) && j - i < 512) bytes += spill.length[sampledIds[j++]];
    parts.push(blockFingerprints(readSpilled(spill, sampledIds.subarray(i, j))));
    i = j;
  }
  const blocks = concatBlocks(parts);
  const tables: BigUint64Array[] = [];
  const hosts: string[] = [];
  const sites: SiteTemplate[] = [];
  const tableOf = new Map<string, number>();
  let trusted = 0, heavy = 0, templateBlocks = 0;
  groups.forEach(([key], g) => {
    if (samples[g].length < o.trustAfter) return;
    const rows = samples[g].map((d) => row.get(d)!);
    const t = templateTable(blocks, rows, o.share);
    const site = siteTemplate(key, blocks, rows, t, o.heavy);
    tableOf.set(key, tables.length);
    tables.push(site.heavy ? t : new BigUint64Array(0)); hosts.push(key); sites.push(site);
    trusted++;
    if (site.heavy) { heavy++; templateBlocks += t.length; }
  });
  const offsets = new Uint32Array(tables.length + 1);
  tables.forEach((t, k) => { offsets[k + 1] = offsets[k] + t.length; });
  const values = new BigUint64Array(offsets[tables.length]);
  tables.forEach((t, k) => values.set(t, offsets[k]));
  const docTable = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const t = tableOfSite(tableOf, hostOf[i], sectionOf[i]);
    docTable[i] = t === undefined ? NO_TABLE : sites[t].heavy ? t : WHOLE_PAGE;
  }
  return { tables: { values, offsets, docTable }, hosts, sites, stats: { hosts: byHost.size, sections: groups.length - byHost.size, trusted, heavy, sampledPages: sampled.length, templateBlocks } };
}

/** Takes consecutive columns of the batches' `key` results; returns them joined (each batch's row i is page starts[b] + i). */
function concatFingerprints(results: readonly PageJobResult[], n: number): BigUint64Array {
  const out = new BigUint64Array(n);
  let at = 0;
  for (const r of results) { const f = resultOf(r, FINGERPRINTS)!; out.set(f, at); at += f.length; }
  return out;
}

/**
 * Takes input path(s) and options; returns the web graph and every page's bag of words (the same as
 * `crawlBags` over the loaded crawl, and with `shingleSets` the same sets as `crawlShingleSets`),
 * read in one streaming pass; in content mode the HTML pages are then read back from a spill file.
 */
export async function readForSignatures(input: Inputs, options: SignatureStreamOptions = {}): Promise<SignatureInput> {
  rejectUnknown(options, ['content', 'templates', 'shingleSets', 'spillDir', 'onStage', 'workers', 'batchBytes', 'read', 'onProgress'], 'readForSignatures');
  const content = options.content ?? 'page';
  if (content !== 'page' && content !== 'main') throw optionError('content', "'page' | 'main'", content);
  if (content === 'page' && options.templates !== undefined) throw optionError('templates', "no value with content 'page' (templates apply to content 'main')", 'options');
  if (content === 'main') resolveTemplateOptions(options.templates);
  const w = options.shingleSets === true ? DEFAULT_W : typeof options.shingleSets === 'number' ? options.shingleSets : undefined;
  const job: PageWork[] = [work(BAGS, content === 'page' ? 'page' : 'text')];
  if (content === 'main') job.push(work(FINGERPRINTS, true));
  if (w !== undefined) job.push(work(SHINGLES, { w }));
  // one pool for the stream and the content tokens read back: worker isolates start once (on the first batch that needs them)
  const workers = workerCount(options.workers);
  const pool = workers > 1 ? createPool({ workers }) : undefined;
  let stream: PageStream;
  try {
    stream = await streamPages(input, {
      job, workers, batchBytes: options.batchBytes, onProgress: options.onProgress, pool,
      read: { ...(options.read ?? {}), links: true },
      spillDir: content === 'main' ? options.spillDir ?? defaultSpillDir() : undefined,
    });
  } catch (e) {
    await pool?.close();
    throw e;
  }
  try {
    const graph = graphOf(stream, options.read?.onError as ((e: ReadError) => void) | undefined);
    const n = stream.urls.length;
    let sets: ShingleSets | undefined;
    if (w !== undefined) {
      const rows: Uint32Array[] = [];
      for (const r of stream.results) {
        const s = resultOf(r, SHINGLES)!;
        for (let i = 0; i + 1 < s.offsets.length; i++) rows.push(s.words.subarray(2 * s.offsets[i], 2 * s.offsets[i + 1]));
      }
      sets = shingleSetsFromValues(rows);
      for (const r of stream.results) delete r.columns[SHINGLES.name];
    }
    // Every page's bag: from its batch, or in content mode for HTML pages from the content windows.
    const parts: BagRows[] = stream.results.map((r) => resultOf(r, BAGS)!);
    const partOf = new Uint32Array(n), rowOf = new Uint32Array(n);
    stream.results.forEach((r, b) => { for (let i = 0; i < r.n; i++) { partOf[stream.starts[b] + i] = b; rowOf[stream.starts[b] + i] = i; } });
    let templates: LearnedTemplates | undefined;
    if (content === 'main') {
      const ids = Uint32Array.from(stream.html.keys()).filter((d) => stream.html[d] === 1);
      const fps = concatFingerprints(stream.results, n);
      const urls = Array.from(ids, (d) => stream.urls[d]);
      options.onStage?.('templates', `learning from the first pages of ${ids.length === 0 ? 0 : new Set(urls.map(hostOfUrl)).size} hosts…`);
      const htmlFps = fps.filter((_, d) => stream.html[d] === 1);
      // redirect stubs (small pages, read back) are not among a site's first pages
      const small = Array.from(ids).filter((d) => stream.spill!.length[d] < STUB_MAX_BYTES);
      const stubIds = new Set<number>();
      for (let i = 0; i < small.length; i += 1024) {
        const window = small.slice(i, i + 1024);
        readSpilled(stream.spill!, window).forEach((b, k) => { if (isRedirectStub(b)) stubIds.add(window[k]); });
      }
      const stubs = Uint8Array.from(ids, (d) => (stubIds.has(d) ? 1 : 0));
      const { hosts, sections } = sectionsOf(urls, htmlFps, resolveTemplateOptions(options.templates).trustAfter, (k) => stubs[k] === 1);
      templates = learnTemplatesFromSpill(stream.spill!, ids, htmlFps, hosts, sections, options.templates, stubs);
      const copies = firstCopies(ids, fps);
      const firstIds = copies.positions.map((k) => ids[k]);
      const windows = [...spillWindows(stream.spill!, firstIds)];
      const tables = templates.tables;
      const workers = stream.workers > 1 && windows.length > 1 ? stream.workers : 1;
      const onPool = workers > 1 ? pool : undefined;
      {
        const inflight: { ids: number[]; done: Promise<PageJobResult> }[] = [];
        let k = 0, done = 0;
        const take = async () => {
          const w = inflight.shift()!;
          const r = await w.done;
          parts.push(resultOf(r, CONTENT_BAGS)!);
          w.ids.forEach((d, i) => { partOf[d] = parts.length - 1; rowOf[d] = i; });
          done += w.ids.length;
          options.onStage?.('content', `${done.toLocaleString('en-US')} of ${firstIds.length.toLocaleString('en-US')} HTML pages read back for their content tokens (byte-identical copies once)`);
        };
        for (const win of windows) {
          const { bytes, ends } = readSpilledPacked(stream.spill!, win);
          const docTable = Uint32Array.from(copies.positions.slice(k, k + win.length), (at) => tables.docTable[at]);
          const job = [work(CONTENT_BAGS, { values: tables.values, offsets: tables.offsets, docTable })];
          k += win.length;
          const html = new Uint8Array(win.length).fill(1);
          if (onPool) {
            inflight.push({ ids: win, done: runPageJobOn(onPool, job, { bytes, ends, html }) });
            if (inflight.length >= 2 * workers) await take();
          } else {
            const pages = Array.from(ends, (end, i) => bytes.subarray(i ? ends[i - 1] : 0, end));
            inflight.push({ ids: win, done: Promise.resolve(runPageJob(job, pages, html)) });
            await take();
          }
        }
        while (inflight.length) await take();
      }
      for (const d of ids) { const f = copies.firstOf(d); if (f !== d) { partOf[d] = partOf[f]; rowOf[d] = rowOf[f]; } }
    }
    const bags = assembleBags(n, parts, partOf, rowOf);
    for (const r of stream.results) delete r.columns[BAGS.name];
    return { stream, graph, bags, sets, templates };
  } finally {
    stream.spill?.remove();
    stream.spill = undefined;
    await pool?.close();
  }
}

/**
 * Takes input path(s), signature options and how to read; returns the bags, both signatures and
 * the graph of the crawl, read as a stream (the same as `signaturesOfCrawl` over the loaded crawl).
 */
export async function signaturesStream(input: Inputs, options: SignatureOptions = {}, read: SignatureStreamOptions = {}): Promise<SignatureInput & { signatures: Signatures }> {
  signatureParams(options);
  const r = await readForSignatures(input, read);
  return { ...r, signatures: computeSignatures(r.bags, { offsets: r.graph.linkOffsets, targets: r.graph.linkTargets }, options) };
}
