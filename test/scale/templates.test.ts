import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import pkg from 'node-sql-parser';
import { parseTemplate, renderTemplate, numberLiteral, TEMPLATE_NAMES } from '../../src/scale/templates.js';
import { loadTemplate, loadTemplates, templateFolder } from '../../src/scale/template-files.js';
import { dialectWriter } from '../../src/scale/dialects.js';
import { renderPlan, planScript } from '../../src/scale/plan.js';
import { ResembleError } from '../../src/errors.js';
import { rng } from '../helpers/random.js';

const { Parser } = pkg as unknown as { Parser: new () => { astify(sql: string, o: { database: string }): unknown } };

function throwsCode(fn: () => unknown, code: string, pattern?: RegExp): void {
  try { fn(); } catch (e) {
    assert.instance(e, ResembleError);
    assert.is((e as ResembleError).code, code);
    if (pattern) assert.match((e as Error).message, pattern);
    return;
  }
  assert.unreachable('expected an error');
}

test('every file in sql/ is a listed template with a header, a version and only declared placeholders', () => {
  const files = readdirSync(templateFolder()).filter((f) => f.endsWith('.sql')).map((f) => f.slice(0, -4)).sort();
  assert.equal(files, [...TEMPLATE_NAMES].sort());
  for (const t of loadTemplates()) {
    assert.ok(t.version >= 1, t.name);
    assert.ok(t.summary.length > 20, `${t.name} has a summary`);
    assert.ok(t.statements.length >= 1);
    for (const s of t.statements) assert.not.match(s, /;\s*$/);
    // Only join / GROUP BY shapes: no list aggregation over unbounded groups (engines cannot spill those).
    const text = readFileSync(templateFolder() + t.name + '.sql', 'utf8');
    assert.not.match(text.replace(/^--.*$/gm, ''), /\b(list|array_agg|collect_list|collect_set|string_agg|group_concat)\s*\(/i, t.name);
  }
});

test('parseTemplate rejects a missing header, an undeclared placeholder, an unused or ill-kinded parameter, a wrong name', () => {
  const head = '-- resemble sql template\n-- name: t\n-- version: 1\n';
  throwsCode(() => parseTemplate('t', 'SELECT 1'), 'E_FORMAT', /first line/);
  throwsCode(() => parseTemplate('t', head + 'SELECT {{x}}'), 'E_FORMAT', /not declared/);
  throwsCode(() => parseTemplate('t', head + '-- param x: table -- out\nSELECT 1'), 'E_FORMAT', /not used/);
  throwsCode(() => parseTemplate('t', head + '-- param x: bytes -- ?\nSELECT {{x}}'), 'E_FORMAT', /kind/);
  throwsCode(() => parseTemplate('u', head + 'SELECT 1'), 'E_FORMAT', /name/);
  throwsCode(() => parseTemplate('t', '-- resemble sql template\n-- name: t\n-- version: zero\nSELECT 1'), 'E_FORMAT', /version/);
  const t = parseTemplate('t', head + '-- param x: table -- out\n-- param n: integer -- n\nCREATE TABLE {{x}} AS SELECT {{n}} AS n;\n\nSELECT {{n}};\n');
  assert.is(t.statements.length, 2);
  assert.equal(renderTemplate(t, { x: 'out', n: 3 }, dialectWriter('duckdb')), ['CREATE OR REPLACE TABLE out AS SELECT 3 AS n', 'SELECT 3']);
  assert.equal(renderTemplate(t, { x: 'out', n: 3 }, dialectWriter('trino')), ['DROP TABLE IF EXISTS out', 'CREATE TABLE out AS SELECT 3 AS n', 'SELECT 3']);
});

test('renderTemplate checks every parameter: unknown, missing, ill-typed, and no injection through names', () => {
  const cap = loadTemplate('cap');
  const ok = { keys: 'k', counts: 'c', kept: 'p', common: 'm', ignored: 'i', cap: 10 };
  const duck = dialectWriter('duckdb');
  assert.ok(renderTemplate(cap, ok, duck).length === 4);
  throwsCode(() => renderTemplate(cap, { ...ok, extra: 1 }, duck), 'E_OPTION', /unknown parameter/);
  throwsCode(() => renderTemplate(cap, { ...ok, cap: undefined as never }, duck), 'E_OPTION', /cap\.cap/);
  throwsCode(() => renderTemplate(cap, { ...ok, cap: 1.5 }, duck), 'E_OPTION', /integer/);
  throwsCode(() => renderTemplate(cap, { ...ok, kept: 'p; DROP TABLE x' }, duck), 'E_OPTION', /table name/);
  throwsCode(() => renderTemplate(loadTemplate('edges'), { pairs: 'p', edges: 'e', threshold: NaN, containment: 2 }, duck), 'E_OPTION', /finite/);
});

test('number literals round-trip exactly (the SQL filter compares the same doubles as the library)', () => {
  const rnd = rng(5);
  for (let i = 0; i < 2000; i++) {
    const x = i < 4 ? [0, 1, 0.2, 1e-300][i] : rnd() * 10 ** Math.floor(rnd() * 6 - 3);
    assert.is(Number(numberLiteral(x)), x);
    assert.match(numberLiteral(x), /^[\d.]+e[+-]\d+$/);
  }
});

test('dialect adapters: type names, table (re)creation, and input relations', () => {
  const edges = loadTemplate('sizes');
  const params = { keys: 'ds.keys', sizes: 'ds.sizes' };
  assert.match(renderTemplate(edges, params, dialectWriter('bigquery'))[0], /CAST\(COUNT\(\*\) AS FLOAT64\)/);
  assert.match(renderTemplate(edges, params, dialectWriter('spark'))[1], /AS DOUBLE/);
  assert.match(renderTemplate(edges, params, dialectWriter('bigquery'))[0], /^CREATE OR REPLACE TABLE ds\.sizes AS/);
  assert.is(dialectWriter('duckdb').relation("shards/it's/*.parquet"), "read_parquet('shards/it''s/*.parquet')");
  assert.is(dialectWriter('spark').relation('s3://bucket/keys/'), 'parquet.`s3://bucket/keys/`');
  assert.is(dialectWriter('trino').relation('hive.web.keys'), 'hive.web.keys');
  throwsCode(() => dialectWriter('trino').relation('s3://bucket/keys/'), 'E_OPTION', /external table/);
  throwsCode(() => dialectWriter('bigquery').relation('gs://bucket/keys/*.parquet'), 'E_OPTION', /external table/);
  throwsCode(() => dialectWriter('oracle'), 'E_OPTION', /duckdb\|spark\|trino\|bigquery/);
});

// node-sql-parser has grammars for BigQuery, Trino, Athena and Hive (the closest it has to Spark SQL).
// Its Trino, Athena and Hive grammars lack CREATE TABLE … AS and DROP TABLE IF EXISTS, so for those the
// query under the CREATE is parsed; its Hive grammar reserves KEY (Spark does not), so it is quoted there.
// DuckDB's statements are run by the engine tests instead.
const parser = new Parser();
test('the parser check can fail: it rejects a broken statement in each grammar', () => {
  for (const grammar of ['bigquery', 'trino', 'athena', 'hive']) {
    assert.throws(() => parser.astify('SELECT a, FROM t GROUP', { database: grammar }), grammar);
  }
});
const allStages = { stages: ['pairs', 'components', 'collections'] as ('pairs' | 'components' | 'collections')[], documents: 'web.documents' };
for (const kind of ['min', 'mod'] as const) {
  test(`rendered plans parse as BigQuery (whole statements), Trino, Athena and Hive (queries) — ${kind}`, () => {
    const checks: [string, string, (sql: string) => string][] = [
      ['bigquery', 'bigquery', (s) => s],
      ['trino', 'trino', (s) => s.replace(/^CREATE TABLE \S+ AS\s+/, '')],
      ['trino', 'athena', (s) => s.replace(/^CREATE TABLE \S+ AS\s+/, '')],
      ['spark', 'hive', (s) => s.replace(/^CREATE TABLE \S+ AS\s+/, '').replace(/\bkey\b/g, '`key`')],
    ];
    for (const [dialect, grammar, query] of checks) {
      const plan = renderPlan({ ...allStages, kind, dialect: dialect as 'spark', keys: 'web.keys', sizes: 'web.sizes', members: 'web.members', links: 'web.links', prefix: 'web.r_' });
      let parsed = 0;
      for (const st of plan) {
        if (st.sql.startsWith('DROP TABLE IF EXISTS ')) { assert.match(st.sql, /^DROP TABLE IF EXISTS [\w.]+$/); continue; }
        try { parser.astify(query(st.sql), { database: grammar }); parsed++; } catch (e) {
          assert.unreachable(`${dialect} (${grammar} grammar), template ${st.template}: ${(e as Error).message.slice(0, 200)}\n${st.sql}`);
        }
      }
      assert.ok(parsed >= 12, `${grammar}: ${parsed} statements parsed`);
    }
  });
}

test('planScript labels every template with its version and notes the loops', () => {
  const plan = renderPlan({ dialect: 'spark', keys: 's3://b/keys/', sizes: 's3://b/sizes/' });
  const script = planScript(plan, 'spark');
  for (const name of ['cap', 'pairs', 'estimate-min', 'edges', 'components-init', 'components-round', 'components-changed']) {
    assert.match(script, `-- ${name} (template version ${loadTemplate(name as 'cap').version})`);
  }
  assert.match(script, 'parquet.`s3://b/keys/`');
  assert.match(script, /repeat the round/);
  assert.not.match(script, /\{\{/);
  throwsCode(() => renderPlan({ dialect: 'trino', keys: 's3://b/keys/' }), 'E_OPTION', /external table/);
  throwsCode(() => renderPlan({ stages: ['everything' as 'pairs'] }), 'E_OPTION');
});

test.run();
