// The whole reduce side rendered for one dialect, to run on an engine the library does not drive
// (Spark SQL, Trino/Athena, BigQuery) or to read before running it on DuckDB. Inputs are table
// names, or Parquet locations for dialects that read files inline (DuckDB, Spark).
import { enumOption, intOption, numberOption, optionError, rejectUnknown } from '../errors.js';
import { dialectWriter, DIALECTS, type Dialect } from './dialects.js';
import { loadTemplate } from './template-files.js';
import { renderTemplate, type ParamValue, type TemplateName } from './templates.js';
import { S_LIMITS } from '../sketch/options.js';

/** Stages a plan can hold. */
export type PlanStage = 'pairs' | 'components' | 'collections';
/** Every plan stage, in order. */
export const PLAN_STAGES: readonly PlanStage[] = ['pairs', 'components', 'collections'];

/** Options of `renderPlan`; every one has a default. */
export interface PlanOptions {
  /** Target dialect (default 'duckdb'). */
  dialect?: Dialect;
  /** Stages to render (default pairs and components; collections needs members and links). */
  stages?: PlanStage[];
  /** Input relations: table names or Parquet locations (defaults: `<prefix>keys`, …). */
  keys?: string;
  sizes?: string;
  members?: string;
  links?: string;
  /** Documents (doc, host, …): when given, LinkSummary counts only links within one host. */
  documents?: string;
  /** With prefix keys: the (doc, n) relation of the documents with fewer than `shortUnion` keys; adds the pairs-short template after pairs (needs minHits > 1). */
  short?: string;
  /** The prefix length the keys were cut to (with `short`). */
  shortUnion?: number;
  /** Prefix of every table the plan creates (default 'resemble_'). */
  prefix?: string;
  /** Sketch kind of the keys (default 'min') and the MIN_s size (default 128). */
  kind?: 'min' | 'mod';
  s?: number;
  /** Broder's common-key cap (default 1000), least shared keys (default 1), pair floor (default 0.2), threshold (0.5), containment (off). */
  commonCap?: number;
  minHits?: number;
  pairFloor?: number;
  threshold?: number;
  containment?: number;
  /** LinkSummary: least source cluster size (default 1), and the extended merge condition (default false). */
  minSourceSize?: number;
  extended?: boolean;
}

/** One rendered statement with the template it came from and, for loops, what to repeat. */
export interface PlanStatement {
  template: TemplateName;
  version: number;
  sql: string;
  note?: string;
}

const KNOWN = ['dialect', 'stages', 'keys', 'sizes', 'members', 'links', 'documents', 'short', 'shortUnion', 'prefix', 'kind', 's', 'commonCap',
  'minHits', 'pairFloor', 'threshold', 'containment', 'minSourceSize', 'extended'] as const;

/** Takes plan options; returns the statements to run, in order, for the chosen dialect. */
export function renderPlan(options: PlanOptions = {}): PlanStatement[] {
  rejectUnknown(options, KNOWN, 'renderPlan');
  const dialect = enumOption('dialect', options.dialect, 'duckdb', DIALECTS);
  const stages = options.stages ?? ['pairs', 'components'];
  if (!Array.isArray(stages) || stages.length === 0) throw optionError('stages', `a list of ${PLAN_STAGES.join('|')}`, stages);
  for (const s of stages) enumOption('stages', s, 'pairs', PLAN_STAGES);
  const prefix = options.prefix ?? 'resemble_';
  if (typeof prefix !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$/.test(prefix + 'x')) throw optionError('prefix', 'a table name prefix (letters, digits, _, optional dataset.)', prefix);
  const kind = enumOption('kind', options.kind, 'min', ['min', 'mod'] as const);
  const s = intOption('s', options.s, S_LIMITS.default, S_LIMITS.min, S_LIMITS.max);
  const commonCap = intOption('commonCap', options.commonCap, 1000, 1, 0x7fffffff);
  const minHits = intOption('minHits', options.minHits, 1, 1, 1 << 20);
  const threshold = numberOption('threshold', options.threshold, 0.5, 0, 1);
  const containment = options.containment === undefined ? undefined : numberOption('containment', options.containment, 0, 0, 1);
  const pairFloor = numberOption('pairFloor', options.pairFloor, Math.min(0.2, threshold, containment ?? 1), 0, 1);
  const minSourceSize = intOption('minSourceSize', options.minSourceSize, 1, 1, 0x7fffffff);
  if (options.extended !== undefined && typeof options.extended !== 'boolean') throw optionError('extended', 'boolean', options.extended);
  const writer = dialectWriter(dialect);
  const t = (x: string) => prefix + x;
  const out: PlanStatement[] = [];
  const add = (name: TemplateName, params: Record<string, ParamValue>, note?: string) => {
    const template = loadTemplate(name);
    renderTemplate(template, params, writer).forEach((sql, i) => out.push({ template: name, version: template.version, sql, ...(i === 0 && note ? { note } : {}) }));
  };

  const keys = options.keys ?? t('keys');
  if (stages.includes('pairs')) {
    let sizes = options.sizes;
    if (sizes === undefined) {
      if (kind === 'min') sizes = t('sizes');
      else { add('sizes', { keys, sizes: t('sizes') }); sizes = t('sizes'); }
    }
    add('cap', { keys, counts: t('counts'), kept: t('kept'), common: t('common'), ignored: t('ignored'), cap: commonCap });
    add('pairs', { kept: t('kept'), candidates: t('candidates'), min_hits: minHits });
    if (options.short !== undefined) {
      if (options.shortUnion === undefined) throw optionError('shortUnion', 'the prefix length the keys were cut to, with short', options.shortUnion);
      const shortUnion = intOption('shortUnion', options.shortUnion, 0, 1, 1 << 16);
      if (minHits < 2) throw optionError('minHits', 'at least 2 with short (pairs-short adds the pairs a prefix of minHits keys misses)', minHits);
      add('pairs-short', { kept: t('kept'), short: options.short, candidates: t('candidates'), min_hits: minHits, short_union: shortUnion });
    }
    const shared = { candidates: t('candidates'), sizes, ignored: t('ignored'), bounded: t('bounded'), sides: t('sides'), pairs: t('pairs'), floor: pairFloor, floor_bound: pairFloor * (1 - 1e-9) };
    if (kind === 'min') add('estimate-min', { ...shared, keys, ranked: t('ranked'), counted: t('counted'), tau: t('tau'), s });
    else add('estimate-mod', { ...shared, common: t('common'), both_common: t('both_common') });
    add('edges', { pairs: t('pairs'), edges: t('edges'), threshold, containment: containment ?? 2 },
      'read this table back (a, b) and run union-find in the library when it fits in memory; otherwise run the components stage');
  }
  if (stages.includes('components')) {
    const edges = t('edges');
    add('components-init', { edges, labels: t('labels_a') });
    add('components-round', { edges, labels: t('labels_a'), next: t('labels_b') },
      `round 1; round k reads ${t('labels_a')} and writes ${t('labels_b')} when k is odd, the other way when k is even`);
    add('components-changed', { labels: t('labels_a'), next: t('labels_b') },
      'repeat the round and this query until it returns 0; the last table written holds (v, label), label = smallest DocId of the component');
  }
  if (stages.includes('collections')) {
    let links = options.links ?? t('links');
    if (options.documents !== undefined) {
      add('site-links', { links, documents: options.documents, site_links: t('site_links') });
      links = t('site_links');
    }
    const members = options.members ?? t('members');
    add('link-summary', { members, links, summary: t('link_summary'), min_source_size: minSourceSize });
    add('link-merge', { summary: t('link_summary'), merges: t('merges'), extended: options.extended ? 1 : 0 },
      'connected components of these (Ri, Rj) pairs are the similar clusters (Figure 9, step 5): run the components stage with edges = this table, or union-find in the library');
  }
  return out;
}

/** Takes rendered statements; returns them as one SQL script with a comment per template. */
export function planScript(statements: PlanStatement[], dialect: Dialect): string {
  const lines = [`-- resemble plan for ${dialect}`];
  let last = '';
  for (const st of statements) {
    if (st.template !== last) lines.push('', `-- ${st.template} (template version ${st.version})`);
    if (st.note) lines.push(`-- ${st.note}`);
    lines.push(st.sql + ';');
    last = st.template;
  }
  return lines.join('\n') + '\n';
}
