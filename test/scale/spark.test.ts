// The spark engine on a real multi-process cluster: one driver started once for the whole suite
// (local-cluster: a master, two worker processes and an executor JVM on each, on 127.0.0.1), and
// every command run here reuses it. Over the realistic slice, `dups` and `collections` with
// --engine spark print what the in-memory engine and DuckDB print, byte for byte; the Parquet map
// side sharded by host into 1, 3 and 7 shards holds a single run's sketches and clusters to the
// in-memory output on Spark and DuckDB; bad shard sets are refused before any engine starts;
// a Spark job failing part-way leaves no output; missing Java, Spark or master are E_ENGINE.
//
// Spark comes from requirements-spark.txt in .venv-spark/ (.ci/run installs it). Without it the
// suite fails; RESEMBLE_SKIP_SPARK=1 skips it on a developer's machine, never in CI.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { init } from '../../src/index.js';
import { ResembleError } from '../../src/errors.js';
import { readParquetGroups } from '../../src/scale/parquet-read.js';
import { renderPlan } from '../../src/scale/plan.js';
import { sparkCandidateSql } from '../../src/scale/candidate-engine.js';
import { tableNames } from '../../src/scale/pipeline.js';
import { readShardSet, shardFolder, sketchToParquet } from '../../src/scale/shards.js';
import { findSparkSubmit, openSpark, type SparkSession } from '../../src/scale/spark.js';
import { tempDir } from '../io/fixtures.js';

const SLICE = join(process.cwd(), 'test', 'fixtures', 'realistic-slice', 'crawl');
const VENV_PYTHON = join(process.cwd(), '.venv-spark', 'bin', 'python');
const MASTER = 'local-cluster[2,1,1024]';
// two executors of one core: two shuffle partitions keep each Spark job to a few tasks
const CONF = ['spark.sql.shuffle.partitions=2'];
const SPARK_FLAGS = ['--engine', 'spark', '--master', MASTER, ...CONF.flatMap((c) => ['--spark-conf', c])];
const SPARK = { master: MASTER, sparkConf: Object.fromEntries(CONF.map((c) => c.split('='))) };

// The suite's Spark: the project's virtual environment, else SPARK_HOME / PYSPARK_PYTHON as set.
if (existsSync(VENV_PYTHON) && process.env.PYSPARK_PYTHON === undefined) process.env.PYSPARK_PYTHON = VENV_PYTHON;
let found: string | undefined;
try {
  found = findSparkSubmit().path;
} catch (e) {
  found = undefined;
  if (process.env.RESEMBLE_SKIP_SPARK === '1' && !process.env.CI) {
    console.log(`spark suite skipped (RESEMBLE_SKIP_SPARK=1): ${(e as Error).message}`);
  } else {
    test('Spark is installed (python3 -m venv .venv-spark && .venv-spark/bin/pip install -r requirements-spark.txt)', () => {
      assert.unreachable((e as Error).message);
    });
  }
}

const { dir, cleanup } = tempDir('resemble-spark-');

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  return { code, out, err };
}

async function rejectsWith(what: Promise<unknown>, code: string, pattern: RegExp): Promise<void> {
  try {
    await what;
  } catch (e) {
    assert.instance(e, ResembleError);
    assert.is((e as ResembleError).code, code, (e as Error).message);
    assert.match((e as Error).message, pattern);
    return;
  }
  assert.unreachable(`expected ${code} ${pattern}`);
}

// (no Spark needed)
test('the engine sends the Spark SQL that plan --dialect spark prints (cap, pairs and pairs-short templates)', () => {
  const prefix = 'resemble_', keys = '/data/map/keys.parquet', short = '/data/map/short.parquet';
  const sql = sparkCandidateSql(keys, short, { commonCap: 700, minHits: 2, shortUnion: 44 }, tableNames(prefix));
  const plan = renderPlan({ dialect: 'spark', keys, sizes: '/data/map/sizes.parquet', short, shortUnion: 44, prefix, commonCap: 700, minHits: 2 });
  assert.equal(sql.cap, plan.filter((s) => s.template === 'cap').map((s) => s.sql));
  assert.equal(sql.pairs, plan.filter((s) => s.template === 'pairs' || s.template === 'pairs-short').map((s) => s.sql));
  assert.ok(sql.pairs.some((s) => s.includes('parquet.`/data/map/short.parquet`') && s.includes('< 44')), 'pairs-short is sent');
  assert.match(sql.cap[1], 'parquet.`/data/map/keys.parquet`');
});

let session: SparkSession;
const started = performance.now();

if (found) {
  test.before(async () => {
    await init();
    session = await openSpark(SPARK);
  });

  test('the driver runs on a cluster of two executor processes', async () => {
    let executors = 0;
    for (let i = 0; i < 240 && (executors = await session.executors()) < 2; i++) await new Promise((r) => setTimeout(r, 500));
    assert.is(executors, 2, 'executors registered');
    assert.is(session.master, MASTER);
  });

  test('dups --engine spark prints the in-memory output byte for byte, as DuckDB does', async () => {
    const memory = await run(['dups', SLICE, '--quiet']);
    const duckdb = await run(['dups', SLICE, '--quiet', '--engine', 'duckdb', '--temp-dir', join(dir, 'duck')]);
    const spark = await run(['dups', SLICE, '--quiet', ...SPARK_FLAGS]);
    for (const r of [memory, duckdb, spark]) assert.is(r.code, 0, r.err);
    assert.ok(memory.out.split('\n').filter(Boolean).length >= 20, memory.out);
    assert.is(duckdb.out, memory.out);
    assert.is(spark.out, memory.out);
  });

  for (const flags of [[], ['--similarity', 'sketch:0.5', '--min-size', '2']]) {
    test(`collections --engine spark prints the in-memory output, as DuckDB does ${flags.join(' ') || '(default similarity)'}`, async () => {
      const memory = await run(['collections', SLICE, ...flags]);
      const duckdb = await run(['collections', SLICE, ...flags, '--engine', 'duckdb']);
      const spark = await run(['collections', SLICE, ...flags, ...SPARK_FLAGS]);
      for (const r of [memory, duckdb, spark]) assert.is(r.code, 0, r.err);
      assert.ok(memory.out.split('\n').filter(Boolean).length >= 1, memory.out);
      assert.is(duckdb.out, memory.out);
      assert.is(spark.out, memory.out);
      const summary = (err: string) => err.split('\n').find((l) => l.startsWith('collections:'));
      assert.is(summary(spark.err), summary(memory.err));
    });
  }

  /** Takes a shard folder; returns its rows of one table as sorted text lines (to compare sets of rows). */
  async function rows(paths: string[], table: string, columns: Record<string, 'number' | 'bigint' | 'string'>): Promise<string[]> {
    const out: string[] = [];
    for (const p of paths) {
      await readParquetGroups(join(p, `${table}.parquet`), columns, (c, n) => {
        for (let i = 0; i < n; i++) out.push(Object.keys(columns).map((k) => String(c[k][i])).join(' '));
      });
    }
    return out.sort();
  }

  test('sharded by host into 1, 3 and 7 shards, the map side holds a single run\'s rows and clusters to the in-memory output on Spark and DuckDB', async () => {
    const memory = await run(['dups', SLICE, '--quiet', '--exact-band', '0']);
    assert.is(memory.code, 0, memory.err);
    const single = join(dir, 'single');
    // as dups sketches by default: content main
    const whole = await sketchToParquet(SLICE, single, { sketch: { content: 'main' }, workers: 1 });
    assert.is(whole.manifest.documents, 66);
    const want = {
      keys: await rows([single], 'keys', { doc: 'number', key: 'bigint' }),
      pages: await rows([single], 'pages', { doc: 'number', tokens: 'number', template_tokens: 'number', raw_fp: 'bigint', lexical_fp: 'bigint', shingle_fp: 'bigint' }),
      documents: await rows([single], 'documents', { doc: 'number', url: 'string', date: 'number' }),
    };
    assert.ok(want.keys.length > 3000);
    for (const n of [1, 3, 7]) {
      const folder = join(dir, `shards-${n}`);
      for (let i = 1; i <= n; i++) {
        const r = await run(['sketch', SLICE, '--parquet', folder, '--shard', `${i}/${n}`, '--quiet', '--workers', '1']);
        assert.is(r.code, 0, r.err);
      }
      const set = await readShardSet(folder);
      assert.is(set.shards.length, n);
      if (n > 1) assert.ok(set.shards.filter((s) => s.manifest.documents > 0).length >= 2, 'pages spread over shards');
      const paths = set.shards.map((s) => s.path);
      assert.equal(await rows(paths, 'keys', { doc: 'number', key: 'bigint' }), want.keys, `${n} shards: keys`);
      assert.equal(await rows(paths, 'pages', { doc: 'number', tokens: 'number', template_tokens: 'number', raw_fp: 'bigint', lexical_fp: 'bigint', shingle_fp: 'bigint' }), want.pages, `${n} shards: pages`);
      assert.equal(await rows(paths, 'documents', { doc: 'number', url: 'string', date: 'number' }), want.documents, `${n} shards: documents`);
      const spark = await run(['dups', '--from-parquet', folder, ...SPARK_FLAGS]);
      assert.is(spark.code, 0, spark.err);
      assert.is(spark.out, memory.out, `${n} shards on Spark`);
      assert.match(spark.err, `from ${n} Parquet shard`);
      if (n > 1) {
        const duckdb = await run(['dups', '--from-parquet', folder, '--engine', 'duckdb', '--quiet']);
        assert.is(duckdb.code, 0, duckdb.err);
        assert.is(duckdb.out, memory.out, `${n} shards on DuckDB`);
      }
    }
  });

  test('a bad shard set is refused, naming the shard, before the engine starts', async () => {
    const base = join(dir, 'shards-3');
    const copy = (name: string) => { const to = join(dir, name); cpSync(base, to, { recursive: true }); return to; };
    // a master nobody listens on: an error about it would mean the engine started first
    const dead = ['--engine', 'spark', '--master', 'spark://127.0.0.1:9', '--quiet'];
    const missing = copy('missing');
    const { rmSync } = await import('node:fs');
    rmSync(join(missing, shardFolder({ index: 2, count: 3 })), { recursive: true });
    const twice = copy('twice');
    cpSync(join(twice, shardFolder({ index: 3, count: 3 })), join(twice, 'shard-3-of-3-again'), { recursive: true });
    const other = copy('other');
    rmSync(join(other, shardFolder({ index: 1, count: 3 })), { recursive: true });
    assert.is((await run(['sketch', SLICE, '--parquet', other, '--shard', '1/3', '--w', '7', '--quiet'])).code, 0);
    const version = copy('version');
    const manifest = join(version, shardFolder({ index: 2, count: 3 }), 'shard.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"contract": 2', '"contract": 1'));
    for (const [folder, pattern] of [
      [missing, /shard 2\/3 is missing/],
      [twice, /shard 3\/3 is there twice: .*shard-3-of-3 and .*shard-3-of-3-again/],
      [other, /shard-1-of-3 was written with other options .*sketch\.w/],
      [version, /shard-2-of-3 is a shard of format version 1, contract version 1/],
    ] as const) {
      const r = await run(['dups', '--from-parquet', folder, ...dead]);
      assert.is(r.code, 1, r.err);
      assert.match(r.err, pattern);
      assert.not.match(r.err, /master/);
    }
    const again = await run(['sketch', SLICE, '--parquet', base, '--shard', '2/3', '--quiet']);
    assert.is(again.code, 1);
    assert.match(again.err, /shard 2\/3 is in .* already/);
  });

  test('a Spark job failing part-way leaves no output at its path, and the session goes on', async () => {
    const folder = session.jobFolder();
    const path = join(folder, 'out');
    await rejectsWith(session.run({
      statements: ['DROP TABLE IF EXISTS r_fail', 'CREATE TABLE r_fail AS SELECT id FROM range(100000)'],
      outputs: [{ sql: "SELECT IF(id < 99999, id, raise_error('planted failure')) AS id FROM r_fail ORDER BY id", path }],
      drop: ['r_fail'],
    }), 'E_ENGINE', /planted failure/);
    const { readdirSync } = await import('node:fs');
    assert.equal(readdirSync(folder), []);
    const ok = await session.run({ queries: { n: 'SELECT COUNT(*) AS n FROM range(10)' } });
    assert.is(ok.rows.n.n, 10);
  });

  test('missing Java, Spark or master is E_ENGINE naming what is missing', async () => {
    const saved = { JAVA_HOME: process.env.JAVA_HOME, PATH: process.env.PATH, SPARK_HOME: process.env.SPARK_HOME };
    try {
      process.env.JAVA_HOME = join(dir, 'no-java');
      await rejectsWith(openSpark({ master: 'local[1]' }), 'E_ENGINE', /needs Java 17 or later: JAVA_HOME is .*no-java/);
      delete process.env.JAVA_HOME;
      process.env.PATH = join(dir, 'empty');
      await rejectsWith(openSpark({ master: 'local[1]' }), 'E_ENGINE', /needs Java 17 or later: no java on the PATH/);
      process.env.PATH = saved.PATH;
      delete process.env.SPARK_HOME;
      await rejectsWith(openSpark({ master: 'local[1]', sparkHome: join(dir, 'no-spark') }), 'E_ENGINE', /sparkHome is .*no-spark, which has no bin\/spark-submit/);
      await rejectsWith(openSpark({ master: 'local[1]', python: join(dir, 'no-python') }), 'E_ENGINE', /needs Apache Spark: set SPARK_HOME, or pip install pyspark/);
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
    await rejectsWith(openSpark({ master: 'spark://127.0.0.1:9' }), 'E_ENGINE', /master spark:\/\/127\.0\.0\.1:9 does not answer/);
    const cli = await run(['dups', SLICE, '--engine', 'spark', '--master', 'spark://127.0.0.1:9', '--quiet']);
    assert.is(cli.code, 1);
    assert.match(cli.err, /does not answer/);
  });

  test.after(async () => {
    await session?.release();
    cleanup();
    console.log(`spark suite: ${((performance.now() - started) / 1000).toFixed(1)} s on ${MASTER}`);
  });
}

test.run();
