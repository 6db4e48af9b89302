// `nearDuplicates` with its candidate step on DuckDB: the same options, the same NearDuplicates
// result (pairs, clusters, evidence), but postings and pair counting happen in SQL under a memory
// limit instead of in typed arrays. Equivalent documents are set aside in the library first (one
// fingerprint per document), and the final phase (union-find, evidence) runs in the library on
// the pairs that come back.
import { intOption, optionError, rejectUnknown } from '../errors.js';
import { setAside, C_AB, C_BA, SHARED, SetEstimator, bandKeys, lshParams, NearDuplicates, nonEmpty, resolveNearDuplicateOptions, completeAbove, prefixKeys, PairTableBuilder, type ClusterColumns, type LshParams, type CandidateStats, type NearDuplicateOptions, type PairTable } from '../cluster/index.js';
import { ENGINE_OPTIONS, DuckDBEngine, type EngineOptions } from './duckdb.js';
import { candidateStages, readPairs, StageClock, tableNames, type PipelineProgress, type ResolvedPipeline } from './pipeline.js';
import { keyRows, shortRows, sizeRows } from './rows.js';

/** Options of `clusterWithDuckDB`: those of `nearDuplicates`, the engine's, and two of its own. */
export interface DuckDBClusterOptions extends NearDuplicateOptions, EngineOptions {
  /** Least shared kept keys for a candidate pair (default: nearDuplicates' own, `prefixHits` with prefix keys and 1 without, which gives exactly the in-memory pairs). */
  minHits?: number;
  /** Progress per stage (load, cap, pairs, estimate, read). */
  onProgress?: (p: PipelineProgress) => void;
}

const CLUSTER_KNOWN = ['threshold', 'containment', 'method', 'commonCap', 'equivalence', 'verify', 'pairFloor',
  'representative', 'dates', 'inlinks', 'falsePositiveWeight', 'falseNegativeWeight', 'prefix'] as const;

/** Takes candidate pairs (a, b, hits) ascending; returns those reaching the floor with the library's estimates. */
function estimateInLibrary(set: ClusterColumns, a: Uint32Array, b: Uint32Array, hits: Uint32Array, floor: number): PairTable {
  const est = new SetEstimator(set);
  const out = est.out;
  const table = new PairTableBuilder();
  for (let i = 0; i < a.length; i++) {
    const r = est.pair(a[i], b[i]);
    if (Math.max(out[C_AB], out[C_BA], r) < floor) continue;
    table.push(a[i], b[i], hits[i], out[SHARED], r, out[C_AB], out[C_BA]);
  }
  return table.finish();
}

/**
 * Takes a sketch set and the options of `nearDuplicates` plus the engine's (memoryLimit, tempDir,
 * threads); returns the same NearDuplicates as `nearDuplicates(set, options)`, with the candidate
 * step run as SQL on embedded DuckDB. MIN_s and MOD_m pairs are estimated in SQL as well; adaptive
 * sketches, super-shingle and LSH candidates are estimated in the library from the sketches.
 */
export async function clusterWithDuckDB(set: ClusterColumns, options: DuckDBClusterOptions = {}): Promise<NearDuplicates> {
  rejectUnknown(options, [...CLUSTER_KNOWN, ...ENGINE_OPTIONS, 'minHits', 'onProgress'], 'clusterWithDuckDB');
  const clusterOptions: NearDuplicateOptions = {};
  const engineOptions: EngineOptions = {};
  for (const k of CLUSTER_KNOWN) if (options[k] !== undefined) (clusterOptions as Record<string, unknown>)[k] = options[k];
  for (const k of ENGINE_OPTIONS) if (options[k] !== undefined) (engineOptions as Record<string, unknown>)[k] = options[k];
  const o = resolveNearDuplicateOptions(set, clusterOptions, 'clusterWithDuckDB');
  // pairs sharing this many keys are candidates (default as nearDuplicates: prefixHits with prefix keys, else 1)
  const minHits = intOption('minHits', options.minHits, o.minHits, 1, 1 << 20);
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') throw optionError('onProgress', 'a function', options.onProgress);

  const n = set.size;
  const eq = setAside(set, o.equivalence, o.priority);
  const docs = nonEmpty(set, eq.kept);
  let keys: { values: BigUint64Array; offsets: Uint32Array } = set;
  let lsh: LshParams | undefined;
  if (o.method === 'super-shingles') keys = set.superShingles!;
  else if (o.method === 'lsh') {
    const k = set.params.k as number;
    lsh = lshParams(k, o.policy.threshold, o.fpWeight, o.fnWeight);
    keys = bandKeys(set.signature!, n, k, lsh, (d) => set.offsets[d + 1] === set.offsets[d]);
  }
  // Prefix keys (as nearDuplicates makes them): the common values are counted here, so SQL pairs
  // the same keys; the estimates then need the whole rows and are made in the library.
  let common: { ignoredShingles: number; ignoredPostings: number } | undefined;
  if (o.method === 'pairs' && o.prefix > 0) keys = common = prefixKeys(set, docs, o.commonCap, o.prefix);
  const verified = o.method === 'pairs' || o.policy.verify;
  const floor = verified ? o.pairFloor : 0;
  const kind = set.params.kind;
  const inSql = o.method === 'pairs' && !common && (kind === 'min' || kind === 'mod');
  const resolved: ResolvedPipeline = {
    kind: kind === 'mod' ? 'mod' : 'min', s: typeof set.params.s === 'number' ? set.params.s : 1,
    commonCap: o.commonCap, minHits, shortUnion: common ? o.prefix : 0, pairFloor: floor, threshold: o.policy.threshold, containment: o.policy.containment,
    components: 'library', maxLibraryEdges: 0, prefix: 'r_',
  };

  const clock = new StageClock(options.onProgress);
  const engine = await DuckDBEngine.open(engineOptions);
  const t = tableNames(resolved.prefix);
  try {
    clock.start('load');
    const rows = await engine.load(t.keys, 'keys', keyRows(keys, { docs }));
    if ((resolved.shortUnion ?? 0) > 0) await engine.loadColumns(t.short, shortRows((d) => keys.offsets[d + 1] - keys.offsets[d], docs, resolved.shortUnion!));
    if (inSql) await engine.load(t.sizes, 'sizes', sizeRows(set, { docs }));
    clock.done({ rows });
    const counts = await candidateStages(engine, resolved, t.keys, t.sizes, clock, inSql);
    clock.start('read');
    let pairs: PairTable;
    if (inSql) pairs = await readPairs(engine, t.pairs);
    else {
      const c = await engine.read(`SELECT a, b, hits FROM ${t.candidates} ORDER BY a, b`);
      const u32 = (x: BigInt64Array | Int32Array | Float64Array) => Uint32Array.from(x as unknown as ArrayLike<number>, Number);
      pairs = estimateInLibrary(set, u32(c.a), u32(c.b), u32(c.hits), floor);
    }
    clock.done({ rows: pairs.count });
    const stats: CandidateStats = {
      documents: n, method: o.method, identical: eq.identical, lexical: eq.lexical, shingle: eq.shingle,
      kept: eq.kept.length, postings: counts.keptRows, ignoredShingles: common ? common.ignoredShingles : counts.ignoredKeys,
      ignoredPostings: common ? common.ignoredPostings : counts.ignoredRows,
      candidatePairs: counts.candidatePairs, retainedPairs: pairs.count, pairFloor: floor, lsh, prefix: o.prefix, minHits, exactChecked: 0,
      completeAbove: completeAbove(o.prefix, o.policy.threshold, set.params.s),
    };
    return new NearDuplicates(set, eq, pairs, stats, o.policy, o.priority, verified);
  } finally {
    engine.close();
  }
}
