// Cho's LinkSummary (Figure 8) and the merge condition of the cluster growing algorithm (Figure 9,
// steps 2–4) as SQL on DuckDB, for link graphs beyond memory. TRIVIAL(rid, pid) and LINK(src, dst)
// come from the contract (Parquet locations) or from the library's columns.
import { ResembleError, intOption, optionError, rejectUnknown } from '../errors.js';
import type { TableRows } from './contract.js';
import { ENGINE_OPTIONS, DuckDBEngine, type EngineOptions } from './duckdb.js';
import { linkRows, memberRows } from './rows.js';
import { runTemplate } from './run-sql.js';

/** Inputs and options of `linkSummaryWithDuckDB`. */
export interface LinkSummaryInput extends EngineOptions {
  /** TRIVIAL(rid, pid): a Parquet location, rows, or trivial clusters as CSR (count, offsets, pages). */
  members: string | TableRows | { count: number; offsets: Uint32Array; pages: Uint32Array };
  /** LINK(src, dst): a Parquet location, rows, or a link CSR (linkOffsets, linkTargets). */
  links: string | TableRows | { linkOffsets: Uint32Array; linkTargets: Uint32Array };
  /** Only links between pages of one host: a host number per DocId, or a Parquet location of the documents table. */
  hosts?: Uint32Array | string;
  /** Leave out rows whose source cluster has fewer pages (default 1: every row). */
  minSourceSize?: number;
  /** Also return the merge pairs: 'exact' (|Ri| = s = d = |Rj|) or 'extended' (|Ri| = s ≥ d = |Rj|). */
  merge?: 'exact' | 'extended';
}

/** LinkSummary rows ⟨Ri, Rj, a, b, s, d⟩ as columns, ordered by (ri, rj); merge pairs when asked. */
export interface LinkSummaryRows {
  length: number;
  ri: Uint32Array;
  rj: Uint32Array;
  a: Uint32Array;
  b: Uint32Array;
  s: Uint32Array;
  d: Uint32Array;
  /** Rows meeting the merge condition, as (ri, rj) pairs ordered by (ri, rj). */
  merges?: { length: number; ri: Uint32Array; rj: Uint32Array };
}

const KNOWN = ['members', 'links', 'hosts', 'minSourceSize', 'merge', ...ENGINE_OPTIONS] as const;

function u32(col: BigInt64Array | Int32Array | Float64Array): Uint32Array {
  return Uint32Array.from(col as unknown as ArrayLike<number>, Number);
}

/** Takes TRIVIAL and LINK (and hosts for single-site collections); returns the LinkSummary computed in SQL on DuckDB. */
export async function linkSummaryWithDuckDB(input: LinkSummaryInput): Promise<LinkSummaryRows> {
  rejectUnknown(input, KNOWN, 'linkSummaryWithDuckDB');
  const minSourceSize = intOption('minSourceSize', input.minSourceSize, 1, 1, 0x7fffffff);
  if (input.merge !== undefined && input.merge !== 'exact' && input.merge !== 'extended') throw optionError('merge', 'exact|extended', input.merge);
  if (!input.members || !input.links) throw new ResembleError('E_OPTION', 'linkSummaryWithDuckDB needs members and links', { option: !input.members ? 'members' : 'links' });
  const engineOptions: EngineOptions = {};
  for (const k of ENGINE_OPTIONS) if (input[k] !== undefined) (engineOptions as Record<string, unknown>)[k] = input[k];
  const engine = await DuckDBEngine.open(engineOptions);
  try {
    let members: string, links: string;
    if (typeof input.members === 'string') members = input.members;
    else {
      const rows = 'pages' in input.members ? memberRows(input.members as { count: number; offsets: Uint32Array; pages: Uint32Array }) : input.members as TableRows;
      await engine.load('r_members', 'members', rows);
      members = 'r_members';
    }
    if (typeof input.links === 'string') links = input.links;
    else {
      const rows = 'linkOffsets' in input.links ? linkRows(input.links as { linkOffsets: Uint32Array; linkTargets: Uint32Array }) : input.links as TableRows;
      await engine.load('r_links', 'links', rows);
      links = 'r_links';
    }
    if (input.hosts !== undefined) {
      let documents: string;
      if (typeof input.hosts === 'string') documents = input.hosts;
      else {
        const doc = new BigInt64Array(input.hosts.length), host = new BigInt64Array(input.hosts.length);
        for (let i = 0; i < doc.length; i++) { doc[i] = BigInt(i); host[i] = BigInt(input.hosts[i]); }
        await engine.loadColumns('r_hosts', { doc, host });
        documents = 'r_hosts';
      }
      await runTemplate(engine, 'site-links', { links, documents, site_links: 'r_site_links' });
      links = 'r_site_links';
    }
    await runTemplate(engine, 'link-summary', { members, links, summary: 'r_summary', min_source_size: minSourceSize });
    const c = await engine.read('SELECT ri, rj, a, b, s, d FROM r_summary ORDER BY ri, rj');
    const out: LinkSummaryRows = { length: c.ri.length, ri: u32(c.ri), rj: u32(c.rj), a: u32(c.a), b: u32(c.b), s: u32(c.s), d: u32(c.d) };
    if (input.merge) {
      await runTemplate(engine, 'link-merge', { summary: 'r_summary', merges: 'r_merges', extended: input.merge === 'extended' ? 1 : 0 });
      const m = await engine.read('SELECT a, b FROM r_merges ORDER BY a, b');
      out.merges = { length: m.a.length, ri: u32(m.a), rj: u32(m.b) };
    }
    return out;
  } finally {
    engine.close();
  }
}
