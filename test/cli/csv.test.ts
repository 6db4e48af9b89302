// `--format csv` on the bundled sample, command by command: the CSV is parsed by a strict RFC 4180
// parser, no cell holds JSON, and its rows are the JSON records' members, one row each (the
// convention of docs/FORMATS.md, "CSV output").
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';

const SAMPLE = join(import.meta.dirname, '..', '..', 'sample');

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  return { code, out, err };
}

/** Strict RFC 4180: fields separated by commas, rows by \n; a quoted field doubles its quotes; anything else throws. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], i = 0;
  if (!text.endsWith('\n')) throw new Error('CSV does not end with a line break');
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
          i++;
          break;
        }
        field += text[i++];
      }
      if (text[i] !== ',' && text[i] !== '\n') throw new Error(`text after a closing quote at ${i}`);
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\n') {
        if (text[i] === '"' || text[i] === '\r') throw new Error(`bare quote or CR in an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    row.push(field);
    if (text[i] === '\n') { rows.push(row); row = []; }
    i++;
  }
  return rows;
}

/** Takes a record and a member path; returns the record's members (an empty list counts as none). */
function membersOf(record: unknown, path: readonly string[]): unknown[] {
  let level: unknown[] = [record];
  for (const key of path) {
    const next: unknown[] = [];
    for (const x of level) {
      const list = x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[key] : undefined;
      if (Array.isArray(list) && list.length > 0) next.push(...list);
      else next.push(undefined);
    }
    level = next;
  }
  return level;
}

interface Case {
  argv: string[];
  /** Where a record's members are (the command's CSV layout). */
  members: readonly string[];
  /** A member's URL and the column that must hold it, when members have one. */
  url?: [column: string, of: (member: any) => string | undefined];
  /** Record fields (plain values) that every row of the record repeats. */
  fields: string[];
}

const CASES: Record<string, Case> = {
  sketch: { argv: ['sketch', SAMPLE], members: ['members'], fields: ['id', 'url', 'distinctShingles', 'estimated'] },
  dups: { argv: ['dups', SAMPLE], members: ['members'], url: ['members.url', (m) => m.url], fields: ['cluster', 'representative', 'size', 'chained'] },
  collections: { argv: ['collections', SAMPLE], members: ['collections'], url: ['collections.root', (m) => m.root], fields: ['cardinality', 'size', 'similar'] },
  mirrors: { argv: ['mirrors', SAMPLE], members: [], fields: ['rank', 'a', 'b', 'score', 'relation'] },
  study: { argv: ['study', SAMPLE], members: ['clusters', 'members'], url: ['clusters.members', (m) => m], fields: [] },
  signatures: { argv: ['signatures', SAMPLE], members: ['members'], url: ['members.url', (m) => m?.url], fields: ['a', 'b', 'group', 'size'] },
  compare: { argv: ['compare', join(SAMPLE, 'docs.example.com', 'sqlite', 'session', 'intro.html'), join(SAMPLE, 'sqlite.example.org', 'session', 'intro.html')], members: [], fields: ['resemblance', 'containmentAB'] },
  plan: { argv: ['plan', '--format', 'jsonl'], members: [], fields: ['template', 'version', 'sql'] },
};

for (const [name, c] of Object.entries(CASES)) {
  test(`${name} --format csv: one row per member, strict RFC 4180, no JSON in a cell, the JSON records' values`, async () => {
    const argv = c.argv.filter((a) => a !== '--format' && a !== 'jsonl');
    const j = await run([...argv, '--format', 'jsonl', '-q']);
    assert.is(j.code, 0, j.err);
    const records = j.out.trim().split('\n').map((l) => JSON.parse(l));
    const r = await run([...argv, '--format', 'csv', '-q']);
    assert.is(r.code, 0, r.err);
    const [header, ...rows] = parseCsv(r.out);
    assert.is(header[0], 'record');
    assert.is(new Set(header).size, header.length, 'column names are unique');
    for (const row of rows) assert.is(row.length, header.length, 'every row has every column');
    for (const row of rows) for (const cell of row) assert.not.ok(/^[[{]/.test(cell), `a cell holds JSON: ${cell.slice(0, 80)}`);
    // the rows are the records' members, in order: max(1, members) rows a record
    const expected: [number, unknown][] = [];
    records.forEach((rec, i) => { for (const m of membersOf(rec, c.members)) expected.push([i, m]); });
    assert.is(rows.length, expected.length, 'one row per member');
    const col = (n: string) => header.indexOf(n);
    assert.equal(rows.map((row) => Number(row[0])), expected.map(([i]) => i), 'the record column numbers the JSON records');
    if (c.url) {
      const at = col(c.url[0]);
      assert.ok(at >= 0, `${c.url[0]} is a column`);
      assert.equal(rows.map((row) => row[at]), expected.map(([, m]) => c.url![1](m) ?? ''), `${c.url[0]} holds each member's URL`);
    }
    for (const f of c.fields) {
      const at = col(f);
      assert.ok(at >= 0, `${f} is a column`);
      assert.equal(rows.map((row) => row[at]), expected.map(([i]) => (records[i][f] === null || records[i][f] === undefined ? '' : String(records[i][f]))), `${f} repeats the record's value`);
    }
  });
}

test('sketch --format csv: the values are one cell of space-separated hex, as in the JSON', async () => {
  const j = await run(['sketch', SAMPLE, '-q']);
  const first = JSON.parse(j.out.split('\n')[0]);
  const r = await run(['sketch', SAMPLE, '-q', '--format', 'csv']);
  const [header, row] = parseCsv(r.out);
  assert.is(row[header.indexOf('values')], first.values.join(' '));
});

test('query --cluster --format csv: one row per URL of the cluster, the cluster number on each', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'resemble-csv-query-'));
  try {
    const file = join(dir, 'sample.rsx');
    const b = await run(['index', 'build', file, SAMPLE, '-q']);
    assert.is(b.code, 0, b.err);
    const url = 'http://sqlite.example.org/whentouse.html';
    const j = await run(['query', '--index', file, '--cluster', url, '-q']);
    assert.is(j.code, 0, j.err);
    const records = j.out.trim().split('\n').map((l) => JSON.parse(l));
    const r = await run(['query', '--index', file, '--cluster', url, '-q', '--format', 'csv']);
    assert.is(r.code, 0, r.err);
    const [header, ...rows] = parseCsv(r.out);
    const expected = records.flatMap((rec, i) => (rec.urls as string[]).map((u) => [String(i), u, String(rec.cluster)]));
    assert.ok(expected.length >= 2, 'the cluster holds pages');
    assert.equal(rows.map((row) => [row[0], row[header.indexOf('urls')], row[header.indexOf('cluster')]]), expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the CSV parser of these tests is strict', () => {
  assert.equal(parseCsv('a,"b ""c"", d"\n1,\n'), [['a', 'b "c", d'], ['1', '']]);
  for (const bad of ['a,"b\n', 'a,b"c\n', 'a,"b"c\n', 'a,b']) assert.throws(() => parseCsv(bad));
});

test.run();
