import { optionError } from '../../errors.js';
import { DIALECTS } from '../../scale/dialects.js';
import { planScript, renderPlan, PLAN_STAGES, type PlanStage } from '../../scale/plan.js';
import { enumFlag, formatOf, intFlag, numberFlag, stringOf } from '../args.js';
import type { Command } from '../command.js';
import { writeRecords } from '../output.js';
import { S_LIMITS } from '../../sketch/options.js';
import { NEAR_DUPLICATE_DEFAULTS } from '../../cluster/defaults.js';

/**
 * `resemble plan`: the reduce side as SQL for one engine — the versioned templates shipped in the
 * package's sql/ folder, rendered for DuckDB, Spark SQL, Trino/Athena or BigQuery with the table
 * locations and thresholds given. Nothing is run; the script is printed.
 */
export const command: Command = {
  name: 'plan',
  summary: 'print the SQL of the reduce side (pairs, components, collections) for DuckDB, Spark, Trino or BigQuery',
  usage: `Usage: resemble plan [--dialect D] [--stage S]... [--keys LOC] [--sizes LOC] [flags]

Prints, in order, the SQL statements that turn the map side's Parquet rows into thresholded pairs,
connected components and Cho's LinkSummary, each under a comment naming its template and version.
Inputs are table names, or Parquet locations for DuckDB (read_parquet) and Spark (parquet.\`LOC\`);
Trino and BigQuery read Parquet through external tables, so give their names. The components round
is printed once with how to repeat it; a driver (or \`resemble dups --engine duckdb\`) runs the loop.

Flags:
  --dialect D           duckdb | spark | trino | bigquery (default duckdb)
  --stage S             pairs | components | collections, repeatable (default pairs and components)
  --keys LOC            (key, doc) rows (default <table-prefix>keys)
  --sizes LOC           (doc, length, cardinality) rows (default <table-prefix>sizes; counted from keys for --kind mod)
  --members LOC         trivial clusters (rid, pid), for collections (default <table-prefix>members)
  --links LOC           links (src, dst), for collections (default <table-prefix>links)
  --documents LOC       documents (doc, url, host, ...): count only links within one host
  --table-prefix P      prefix of the tables the plan creates, may hold a schema (default resemble_)
  --kind min|mod        sketch kind of the keys (default min)
  --s N                 MIN_s sketch size, ${S_LIMITS.min}..${S_LIMITS.max} (default ${S_LIMITS.default})
  --common-cap N        keys in more documents are common and dropped (default ${NEAR_DUPLICATE_DEFAULTS.commonCap})
  --min-hits N          least shared keys for a candidate pair (default 1)
  --short LOC           with prefix keys and --min-hits 2 or more: (doc, n) of the documents with fewer
                        than --short-union keys; adds the pairs-short template after pairs
  --short-union N       the prefix length the keys were cut to (with --short)
  --floor X             least resemblance or containment for a pair to be kept (default 0.2)
  --threshold X         resemblance for an edge (default 0.5)
  --containment X       containment either way for an edge (default off)
  --min-source-size N   LinkSummary rows from smaller trivial clusters are left out (default 1)
  --extended            Cho's extended merge condition |Ri| = s >= d = |Rj| (partial mirrors)

Output: the SQL script; with --format json|jsonl|csv, one record per statement {template, version, sql, note}.`,
  formats: { accepted: ['jsonl', 'json', 'csv'], unset: 'the SQL script' },
  options: {
    dialect: { type: 'string' },
    stage: { type: 'string', multiple: true },
    keys: { type: 'string' },
    sizes: { type: 'string' },
    members: { type: 'string' },
    links: { type: 'string' },
    documents: { type: 'string' },
    'table-prefix': { type: 'string' },
    kind: { type: 'string' },
    s: { type: 'string' },
    'common-cap': { type: 'string' },
    'min-hits': { type: 'string' },
    short: { type: 'string' },
    'short-union': { type: 'string' },
    floor: { type: 'string' },
    threshold: { type: 'string' },
    containment: { type: 'string' },
    'min-source-size': { type: 'string' },
    extended: { type: 'boolean' },
  },
  renamed: { prefix: "is now --table-prefix P in plan (the tables' name prefix; --prefix N of dups is how many sketch values key a page)" },
  async run(ctx) {
    if (ctx.positionals.length > 0) throw optionError('arguments', 'no positional arguments', ctx.positionals.join(' '));
    const dialect = enumFlag(ctx.values, 'dialect', 'duckdb', DIALECTS);
    const stageValues = ctx.values.stage as string[] | undefined;
    const stages = stageValues?.map((s) => enumFlag({ stage: s }, 'stage', 'pairs', PLAN_STAGES) as PlanStage);
    const threshold = numberFlag(ctx.values, 'threshold', 0.5, 0, 1);
    const containment = ctx.values.containment === undefined ? undefined : numberFlag(ctx.values, 'containment', 1, 0, 1);
    const plan = renderPlan({
      dialect, stages,
      keys: stringOf(ctx.values, 'keys'), sizes: stringOf(ctx.values, 'sizes'), members: stringOf(ctx.values, 'members'),
      links: stringOf(ctx.values, 'links'), documents: stringOf(ctx.values, 'documents'), prefix: stringOf(ctx.values, 'table-prefix'),
      kind: enumFlag(ctx.values, 'kind', 'min', ['min', 'mod'] as const),
      s: intFlag(ctx.values, 's', S_LIMITS.default, S_LIMITS.min, S_LIMITS.max),
      commonCap: intFlag(ctx.values, 'common-cap', NEAR_DUPLICATE_DEFAULTS.commonCap, 1, 0x7fffffff),
      minHits: intFlag(ctx.values, 'min-hits', 1, 1, 1 << 20),
      short: stringOf(ctx.values, 'short'),
      ...(ctx.values['short-union'] !== undefined ? { shortUnion: intFlag(ctx.values, 'short-union', 44, 1, 1 << 16) } : {}),
      pairFloor: numberFlag(ctx.values, 'floor', Math.min(0.2, threshold, containment ?? 1), 0, 1),
      threshold, containment,
      minSourceSize: intFlag(ctx.values, 'min-source-size', 1, 1, 0x7fffffff),
      extended: ctx.values.extended === true,
    });
    if (ctx.values.format === undefined) ctx.out.write(planScript(plan, dialect));
    else writeRecords(ctx.out, formatOf(ctx.values), plan.map((st) => ({ template: st.template, version: st.version, sql: st.sql, note: st.note })));
    if (!ctx.quiet) ctx.err.write(`plan: ${plan.length} statements for ${dialect}\n`);
    return 0;
  },
};
