// The peers table (src/bench/contenders.ts): resemble's rows run in processes of their own and
// return the sketches this process makes; without Python every peer is a skip row saying why; and
// bench/peers.py's peers, in the virtual environment of bench/requirements.txt (created here when
// missing, as `npm run bench` does), each return a signature per page of the length it promises.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { contenderResults } from '../../src/bench/contenders.js';
import { loadSample, type Corpus } from '../../src/bench/corpus.js';
import { benchPython } from '../../src/bench/python.js';
import { init } from '../../src/index.js';
import { canonicalize } from '../../src/advanced.js';

await init();
const sample = loadSample();
const docs = sample.docs.slice(0, 6);
const corpus: Corpus = { name: 'first pages', docs, bytes: docs.reduce((a, d) => a + d.length, 0) };
const VENV = fileURLToPath(new URL('../../.venv-bench', import.meta.url));

test('without Python the peers are skip rows; resemble\'s rows run, checked, with their peak RSS', async () => {
  const path = process.env.PATH;
  const empty = mkdtempSync(join(tmpdir(), 'resemble-nopython-'));
  process.env.PATH = empty;
  try {
    const results = await contenderResults(corpus, { rounds: 1, clock: 'cpu', venv: join(empty, 'venv') });
    const ours = results.filter((r) => r.task.role !== 'peer');
    assert.equal(ours.map((r) => r.task.name), ['resemble sketchMany, page text', 'resemble sketchMany, raw HTML (SIMD)', 'resemble sketchMany, raw HTML (scalar)', 'byte loop, bytes in place (ceiling)']);
    for (const r of ours) {
      assert.ok(Number.isFinite(r.ms) && r.ms >= 0, r.task.name);
      assert.ok(r.peakRss! > 1 << 20, `${r.task.name}: peak RSS ${r.peakRss}`);
    }
    const peers = results.filter((r) => r.task.role === 'peer');
    assert.is(peers.length, 7);
    for (const r of peers) {
      assert.ok(Number.isNaN(r.ms));
      assert.match(r.task.name, /\(skipped: no Python 3\.10 or later on PATH/);
    }
  } finally {
    process.env.PATH = path;
    rmSync(empty, { recursive: true, force: true });
  }
});

test('every Python peer returns one signature per page, of its length, the same twice', () => {
  const py = benchPython(VENV);
  if ('skip' in py) assert.unreachable(`the Python peers cannot run: ${py.skip}`);
  const { python, script } = py as { python: string; script: string };
  const dir = mkdtempSync(join(tmpdir(), 'resemble-peers-test-'));
  try {
    const texts = docs.map((d) => canonicalize(d));
    texts.push('');   // a page without text
    writeFileSync(join(dir, 'texts.json'), JSON.stringify(texts));
    for (const [peer, length] of [['datasketch', 128], ['rensa-r', 128], ['rensa-c', 128], ['rensa-r-given', 128], ['rensa-c-given', 128], ['rensa-rho-given', 128], ['datatrove', 112]] as const) {
      const r = spawnSync(python, [script, peer, join(dir, 'texts.json'), 'cpu'], { input: 'check\ncheck\nrun\nrss\n', encoding: 'utf8', env: { ...process.env, RAYON_NUM_THREADS: '1' } });
      assert.is(r.status, 0, `${peer}: ${r.stderr}`);
      const [a, b, run, rss] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      assert.is(a.signatures, texts.length, peer);
      assert.is(a.length, length, peer);
      assert.is(a.first.length, 4, peer);
      assert.equal(a, b, `${peer} is deterministic`);
      assert.ok(run.ms >= 0 && rss.maxrss > 1000, peer);
    }
    const bad = spawnSync(python, [script, 'nonesuch', join(dir, 'texts.json'), 'cpu'], { input: 'check\n', encoding: 'utf8' });
    assert.is.not(bad.status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
