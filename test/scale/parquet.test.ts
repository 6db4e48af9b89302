import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { init, sketchMany } from '../../src/index.js';
import { DuckDBEngine } from '../../src/scale/duckdb.js';
import { ParquetSink, parquetBytes } from '../../src/scale/parquet.js';
import { openParquetFile, writeParquetFile } from '../../src/scale/parquet-file.js';
import { asSigned, asUnsigned, CONTRACT, CONTRACT_VERSION } from '../../src/scale/contract.js';
import { documentRows, keyRows, linkRows, memberRows, pageRows, sizeRows } from '../../src/scale/rows.js';
import { ResembleError } from '../../src/errors.js';
import { corpus, scratch } from './helpers.js';
import { rng } from '../helpers/random.js';
import { ByteWriter } from 'hyparquet-writer';

await init();
const folder = scratch();
const engine = await DuckDBEngine.open({ tempDir: folder });
const rnd = rng(3);

/** Random u64 values, a third with the top bit set and a few at the extremes. */
function randomU64(n: number): BigUint64Array {
  const out = new BigUint64Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = (BigInt(Math.floor(rnd() * 2 ** 32)) << 32n) | BigInt(Math.floor(rnd() * 2 ** 32));
    if (i % 3 === 0) out[i] |= 1n << 63n;
  }
  out[0] = 0n; out[1] = (1n << 64n) - 1n; out[2] = 1n << 63n; out[3] = (1n << 63n) - 1n;
  return out;
}

test('keys: 64-bit hashes go out as signed INT64 with the same bits; DuckDB reads BIGINT and the checksums agree', async () => {
  const values = randomU64(50_000);
  const offsets = Uint32Array.from({ length: 1001 }, (_, i) => i * 50);
  const rows = keyRows({ values, offsets }, { docBase: 7 });
  const path = join(folder, 'keys.parquet');
  writeFileSync(path, parquetBytes('keys', rows, { rowGroupSize: 12_345 }));
  const types = await engine.read(`SELECT COUNT(*) AS n FROM (DESCRIBE SELECT * FROM read_parquet('${path}')) WHERE column_type = 'BIGINT'`);
  assert.is(Number(types.n[0]), 2);
  let sum = 0n, xor = 0n, docSum = 0n;
  for (let i = 0; i < values.length; i++) { const v = BigInt.asIntN(64, values[i]); sum += v; xor ^= v; docSum += BigInt(Math.floor(i / 50) + 7); }
  await engine.run(`CREATE TABLE k AS SELECT * FROM read_parquet('${path}')`);
  // Checksums: row count, XOR and sum of the signed keys (the sum as HUGEINT, compared modulo a prime; both sides truncate).
  const check = await engine.read('SELECT COUNT(*) AS n, BIT_XOR(key) AS x, CAST(SUM(CAST(key AS HUGEINT)) % 1000000007 AS BIGINT) AS m FROM k');
  assert.is(Number(check.n[0]), values.length);
  assert.is(check.x[0], xor);
  assert.is(check.m[0], sum % 1000000007n);
  assert.is((await engine.read('SELECT CAST(SUM(doc) AS BIGINT) AS d FROM k')).d[0], docSum);
  // Row by row, back to the same unsigned values.
  // The engine does not keep row order (preserve_insertion_order is off): compare as sorted multisets.
  const back = asUnsigned((await engine.read('SELECT key FROM k')).key as BigInt64Array).slice().sort();
  const sorted = values.slice().sort();
  assert.is(back.length, values.length);
  let first = -1;
  for (let i = 0; i < values.length && first < 0; i++) if (back[i] !== sorted[i]) first = i;
  assert.is(first, -1, `first differing row ${first}`);
  const meta = await engine.read(`SELECT COUNT(*) AS n FROM parquet_kv_metadata('${path}') WHERE decode(key) = 'resemble.contract' AND decode(value) = '${CONTRACT_VERSION}'`);
  assert.is(Number(meta.n[0]), 1);
});

test('every contract table round-trips through DuckDB with its column types, nulls included', async () => {
  const set = sketchMany(corpus(60, 5), { kind: 'min', s: 16, markup: 'text' });
  const docs = [
    { url: 'http://a.example/x', date: '2000-03-01T12:00:00Z', ip: '10.0.0.1' },
    { url: 'https://b.example:8080/y?q=1' },
    { url: 'not a url', date: 'yesterday' },
  ];
  const graph = { linkOffsets: Uint32Array.of(0, 2, 2, 3), linkTargets: Uint32Array.of(1, 2, 0) };
  const trivial = { count: 2, offsets: Uint32Array.of(0, 2, 3), pages: Uint32Array.of(0, 2, 1) };
  const tables = {
    keys: keyRows(set), sizes: sizeRows(set), documents: documentRows(docs), links: linkRows(graph), members: memberRows(trivial),
    pages: pageRows(set, { ids: Array.from({ length: set.size }, (_, i) => 3 * i) }),
  };
  const sqlType = { INT64: 'BIGINT', INT32: 'INTEGER', DOUBLE: 'DOUBLE', STRING: 'VARCHAR', TIMESTAMP: 'TIMESTAMP' } as const;
  for (const [table, rows] of Object.entries(tables) as [keyof typeof tables, (typeof tables)[keyof typeof tables]][]) {
    const path = join(folder, `${table}.parquet`);
    writeParquetFile(path, table, rows);
    for (const c of CONTRACT[table]) {
      const t = await engine.read(`SELECT COUNT(*) AS n FROM (DESCRIBE SELECT * FROM read_parquet('${path}')) WHERE column_name = '${c.name}' AND column_type = '${sqlType[c.type]}'`);
      assert.is(Number(t.n[0]), 1, `${table}.${c.name} is ${sqlType[c.type]}`);
    }
    const n = await engine.read(`SELECT COUNT(*) AS n FROM read_parquet('${path}')`);
    assert.is(Number(n.n[0]), (rows as Record<string, ArrayLike<unknown>>)[CONTRACT[table][0].name].length, table);
  }
  const sizes = await engine.read(`SELECT length, cardinality FROM read_parquet('${join(folder, 'sizes.parquet')}') ORDER BY doc`);
  assert.equal(Array.from(sizes.length as Int32Array), Array.from({ length: set.size }, (_, i) => set.offsets[i + 1] - set.offsets[i]));
  assert.equal(Array.from(sizes.cardinality as Float64Array), Array.from(set.cardinality));
  const d = await engine.read(`SELECT doc, CAST(epoch_ms(date) AS DOUBLE) AS ms, host IS NULL AS nohost, ip IS NULL AS noip, length(url) AS len FROM read_parquet('${join(folder, 'documents.parquet')}') ORDER BY doc`);
  assert.equal(Array.from(d.ms as Float64Array).slice(0, 1), [Date.parse('2000-03-01T12:00:00Z')]);
  assert.ok(Number.isNaN(Number(d.ms[1])) && Number.isNaN(Number(d.ms[2])), 'unknown dates are null');
  assert.equal(Array.from(d.nohost, Number), [0, 0, 1]);
  assert.equal(Array.from(d.noip, Number), [0, 1, 1]);
  const hosts = await engine.read(`SELECT COUNT(*) AS n FROM read_parquet('${join(folder, 'documents.parquet')}') WHERE host = 'b.example:8080'`);
  assert.is(Number(hosts.n[0]), 1);
  const links = await engine.read(`SELECT src, dst FROM read_parquet('${join(folder, 'links.parquet')}') ORDER BY src, dst`);
  assert.equal(Array.from(links.src, Number), [0, 0, 2]);
  assert.equal(Array.from(links.dst, Number), [1, 2, 0]);
  const members = await engine.read(`SELECT rid, pid FROM read_parquet('${join(folder, 'members.parquet')}') ORDER BY pid`);
  assert.equal(Array.from(members.rid, Number), [0, 1, 0]);
  const pages = await engine.read(`SELECT doc, tokens, raw_fp, shingle_fp FROM read_parquet('${join(folder, 'pages.parquet')}') ORDER BY doc`);
  assert.equal(Array.from(pages.doc, Number), Array.from({ length: set.size }, (_, i) => 3 * i));
  assert.equal(Array.from(pages.tokens, Number), Array.from(set.tokens));
  assert.equal(Array.from(asUnsigned(pages.raw_fp as BigInt64Array)), Array.from(set.rawFp));
  assert.equal(Array.from(asUnsigned(pages.shingle_fp as BigInt64Array)), Array.from(set.shingleFp));
});

test('hyparquet reads the same values back (the browser path), and streaming equals one shot', async () => {
  const values = randomU64(3000);
  const offsets = Uint32Array.from({ length: 101 }, (_, i) => i * 30);
  const rows = keyRows({ values, offsets });
  const oneShot = parquetBytes('keys', rows, { rowGroupSize: 1000 });
  const out = new ByteWriter();
  const sink = new ParquetSink('keys', out as never, { rowGroupSize: 1000 });
  for (let at = 0; at < 3000; at += 700) sink.write({ key: (rows.key as BigInt64Array).subarray(at, at + 700), doc: (rows.doc as BigInt64Array).subarray(at, at + 700) });
  sink.finish();
  assert.is(sink.rows, 3000);
  for (const bytes of [oneShot, out.getBytes()]) {
    const objects = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
    assert.is(objects.length, 3000);
    for (let i = 0; i < 3000; i += 97) {
      assert.is(BigInt.asUintN(64, objects[i].key as bigint), values[i]);
      assert.is(Number(objects[i].doc), Math.floor(i / 30));
    }
  }
  const path = join(folder, 'stream.parquet');
  const file = openParquetFile(path, 'keys');
  file.write(rows).finish();
  const sum = await engine.read(`SELECT BIT_XOR(key) AS x FROM read_parquet('${path}')`);
  assert.is(sum.x[0], asSigned(values).reduce((x, v) => x ^ v, 0n));
});

test('rows are checked: missing, extra or uneven columns, and DocIds out of range', () => {
  const bad = [
    () => parquetBytes('keys', { key: new BigInt64Array(2) }),
    () => parquetBytes('keys', { key: new BigInt64Array(2), doc: new BigInt64Array(3) }),
    () => parquetBytes('links', { src: new BigInt64Array(1), dst: new BigInt64Array(1), weight: new Float64Array(1) }),
    () => keyRows({ values: new BigUint64Array(2), offsets: Uint32Array.of(0, 2) }, { docs: Uint32Array.of(1) }),
  ];
  for (const fn of bad) assert.throws(fn, (e: unknown) => e instanceof ResembleError && e.code === 'E_INPUT');
  assert.throws(() => keyRows({ values: new BigUint64Array(0), offsets: Uint32Array.of(0) }, { docBase: -1 }), (e: unknown) => e instanceof ResembleError && e.code === 'E_OPTION');
});

test.after(() => { engine.close(); rmSync(folder, { recursive: true, force: true }); });
test.run();
