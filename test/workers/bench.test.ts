// The benchmark code that ships (src/bench/, `resemble bench`), without timing anything: sizes,
// the generated buffers, the pre-timing checks (they pass on real kernels), the ratios of the
// report, and the command's flag validation.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generatedBuffer, loadSample, parseSize, sizeLabel, type Corpus } from '../../src/bench/corpus.js';
import { chooseClock, median } from '../../src/bench/measure.js';
import { buildReport, formatReport } from '../../src/bench/report.js';
import { prepare, rabinTasks, sketchTasks, stageTasks, type BenchTask } from '../../src/bench/tasks.js';
import { command } from '../../src/cli/commands/bench.js';
import { init, ResembleError } from '../../src/index.js';
import { kernelBuild } from '../../src/advanced.js';
import type { Machine } from '../../src/bench/machine.js';

await init();

const corpus: Corpus = (() => {
  const sample = loadSample();
  const docs = sample.docs.slice(0, 12);
  return { name: 'first pages', docs, bytes: docs.reduce((a, d) => a + d.length, 0) };
})();

test('parseSize reads KiB/MiB sizes and rejects the rest', () => {
  assert.is(parseSize('4KiB'), 4096);
  assert.is(parseSize('16MiB'), 16 << 20);
  assert.is(parseSize('1.5k'), 1536);
  assert.is(parseSize('65536'), 65536);
  for (const bad of ['', 'abc', '12', '4 GiB', '-4KiB', '2048MiB']) {
    assert.throws(() => parseSize(bad), (e: ResembleError) => e.code === 'E_OPTION', bad);
  }
  assert.is(sizeLabel(4096), '4 KiB');
  assert.is(sizeLabel(5 << 19), '2.5 MiB');
});

test('generated buffers have the exact size, are made of the corpus pages, and are the same every time', () => {
  for (const size of [1024, 100_000, corpus.bytes * 2 + 17]) {
    const a = generatedBuffer(corpus, size), b = generatedBuffer(corpus, size);
    assert.is(a.length, size);
    assert.ok(a.every((x, i) => x === b[i]));
  }
  // every byte comes from some page: the buffer starts with a whole page
  const a = generatedBuffer(corpus, corpus.bytes);
  const first = corpus.docs.find((d) => d.every((x, i) => a[i] === x));
  assert.ok(first, 'starts with one of the pages');
  // the pages appear once each before repeating: same multiset of byte values
  const count = (bufs: Uint8Array[]) => { const c = new Array(256).fill(0); for (const b of bufs) for (const x of b) c[x]++; return c; };
  assert.equal(count([a]), count(corpus.docs));
});

test('every resemble task passes its pre-timing check on real kernels, on the build it names', async () => {
  const tasks = [...rabinTasks(corpus, [4096, 70_000]), ...sketchTasks(corpus, [8192]), ...stageTasks(corpus)];
  assert.ok(tasks.some((t) => t.role === 'ceiling') && tasks.some((t) => t.name === 'resemble chunkBoundaries (SIMD)') && tasks.some((t) => t.name === 'resemble sketchMany (scalar)'));
  assert.ok(tasks.filter((t) => t.section === 'stages' && t.role === 'ours').length === 10, 'five stages on each build');
  for (const t of tasks) {
    prepare(t);
    assert.is(kernelBuild(), t.build ?? 'simd');
    await t.check();
    assert.ok(t.run() !== undefined, t.name);
  }
  prepare({ build: 'simd' } as BenchTask);
});

const MACHINE: Machine = { node: 'v20.0.0', cpu: 'test CPU', cores: 2, load: [0.5, 0.5, 0.5], platform: 'linux x64' };

function fake(section: BenchTask['section'], role: BenchTask['role'], name: string, input: string, vs?: string[]): BenchTask {
  return { section, role, name, input, bytes: 2_000_000, docs: 100, vs, check() {}, run() { return 0; } };
}

test('the report computes MB/s, docs/s, speed-ups over the fastest peer and the share of the ceiling', () => {
  const r = buildReport(MACHINE, 'timing: test', [
    { task: fake('sketch', 'ceiling', 'byte loop (ceiling)', 'x'), ms: 1, runs: 5 },
    { task: fake('sketch', 'ours', 'resemble sketchMany', 'x'), ms: 40, runs: 5 },
    { task: fake('sketch', 'peer', 'slow peer', 'x'), ms: 8000, runs: 3 },
    { task: fake('sketch', 'peer', 'fast peer', 'x'), ms: 2000, runs: 3 },
    { task: fake('workers', 'ours', 'resemble pool, 1 worker', 'x'), ms: 50, runs: 5 },
    { task: fake('workers', 'ours', 'resemble pool, 2 workers', 'x', ['resemble pool, 1 worker']), ms: 30, runs: 5 },
  ]);
  const ours = r.rows[1];
  assert.is(ours.mbPerSecond, 2_000_000 / 1e6 / 0.04);
  assert.is(ours.docsPerSecond, 100 / 0.04);
  assert.equal(ours.vsFastestPeer, { peer: 'fast peer', ratio: 50 });
  assert.is(ours.ofCeiling, 1 / 40);
  assert.is(r.rows[0].vsFastestPeer, undefined);
  assert.is(r.rows[3].ofCeiling, undefined, 'peers get no ratios');
  assert.equal(r.rows[5].vs, { 'resemble pool, 1 worker': 50 / 30 });
  const text = formatReport(r);
  assert.match(text, /node v20\.0\.0 · test CPU · 2 cores · load 0\.50 0\.50 0\.50/);
  assert.match(text, /50× fast peer/);
  assert.match(text, /2\.5%/);
  assert.match(text, /1\.67× pool, 1 worker/);
});

test('the report prints peak RSS beside the rows that have it, speed-ups over every peer where asked, and the ceiling share only on the same bytes', () => {
  const other = { ...fake('peers', 'ours', 'resemble text', 'x'), bytes: 500_000, vsPeers: true };
  const r = buildReport(MACHINE, 'timing: test', [
    { task: fake('peers', 'ours', 'resemble html', 'x'), ms: 10, runs: 3, peakRss: 90 * 2 ** 20 },
    { task: other, ms: 5, runs: 3, peakRss: 80 * 2 ** 20 },
    { task: fake('peers', 'ceiling', 'byte loop', 'x'), ms: 1, runs: 3, peakRss: 70 * 2 ** 20 },
    { task: fake('peers', 'peer', 'fast peer', 'x'), ms: 50, runs: 3, peakRss: 40 * 2 ** 20 },
    { task: fake('peers', 'peer', 'slow peer', 'x'), ms: 500, runs: 3 },
  ]);
  assert.is(r.rows[0].ofCeiling, 1 / 10);
  assert.is(r.rows[1].ofCeiling, undefined, 'text rows read other bytes than the ceiling');
  assert.equal(r.rows[0].vs, undefined, 'only the fastest peer unless asked');
  assert.equal(r.rows[1].vsFastestPeer, { peer: 'fast peer', ratio: 10 });
  assert.equal(r.rows[1].vs, { 'slow peer': 100 });
  assert.is(r.rows[3].peakRss, 40 * 2 ** 20);
  const text = formatReport(r);
  assert.match(text, /peak RSS/);
  assert.match(text, /90 MiB/);
  assert.match(text, /10× fast peer, 100× slow peer/);
});

test('median and the clock choice', () => {
  assert.is(median([5, 1, 3]), 3);
  assert.is(median([4, 1, 3, 2]), 2.5);
  assert.is(chooseClock(undefined, MACHINE), 'wall');
  assert.is(chooseClock('auto', { ...MACHINE, load: [9, 9, 9] }), 'cpu');
  assert.is(chooseClock('wall', { ...MACHINE, load: [9, 9, 9] }), 'wall');
  assert.throws(() => chooseClock('sundial', MACHINE), (e: ResembleError) => e.code === 'E_OPTION');
});

test('resemble bench rejects bad flags before measuring anything', async () => {
  const out: string[] = [];
  const ctx = (values: Record<string, string>) => ({ values, positionals: [], out: { write: (s: string) => void out.push(s) }, err: { write: () => undefined }, progress: false, quiet: true });
  for (const values of [{ sizes: '4KiB,lots' }, { workers: '1' }, { runs: '0' }, { clock: 'sundial' }, { format: 'xml' }] as Record<string, string>[]) {
    try {
      await command.run(ctx(values));
      assert.unreachable(JSON.stringify(values));
    } catch (e) {
      assert.instance(e, ResembleError);
      assert.is((e as ResembleError).code, 'E_OPTION', JSON.stringify(values));
    }
  }
  assert.equal(out, []);
});

test.run();
