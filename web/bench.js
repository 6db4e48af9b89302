// Throughput in the browser, the twin of `resemble bench`: fingerprintMany and sketchMany over a
// generated corpus, on the main thread and through worker pools. Each result is checked against
// the main thread's before it is timed; the figure is the best of RUNS runs.

const RUNS = 3;
const DOC_BYTES = 16 << 10;

/** Takes a size in MB; returns documents of ~16 KB of words from a fixed-seed generator (same corpus every run). */
export function benchCorpus(mb) {
  // xorshift32 with a fixed seed: deterministic and fast.
  let x = 0x9e3779b9;
  const next = () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x >>> 0; };
  const vocabulary = Array.from({ length: 4096 }, () => {
    const len = 2 + (next() % 9);
    let w = '';
    for (let i = 0; i < len; i++) w += String.fromCharCode(97 + (next() % 26));
    return w;
  });
  const enc = new TextEncoder();
  const docs = [];
  const total = mb * (1 << 20);
  for (let bytes = 0; bytes < total;) {
    const words = [];
    let len = 0;
    while (len < DOC_BYTES) {
      const w = vocabulary[next() % vocabulary.length];
      words.push(w);
      len += w.length + 1;
    }
    const doc = enc.encode(`<p>${words.join(' ')}</p>`);
    docs.push(doc);
    bytes += doc.length;
  }
  return docs;
}

const sameU64 = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
const sameBytes = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

async function best(fn) {
  let ms = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    ms = Math.min(ms, performance.now() - t);
  }
  return ms;
}

/**
 * Takes the library, the corpus, the runners ({ label, fingerprintMany, sketchMany }, the first
 * being the main thread) and a row callback; resolves to rows { label, fingerprintMBs, sketchMBs }.
 */
export async function runBench(lib, docs, runners, onRow) {
  const mb = docs.reduce((a, d) => a + d.length, 0) / (1 << 20);
  const wantFp = lib.fingerprintMany(docs);
  const wantSketch = lib.serializeSketchSet(lib.sketchMany(docs));
  const rows = [];
  for (const r of runners) {
    // Checked first (this run also warms up: compiles, spawns workers), then timed.
    if (!sameU64(await r.fingerprintMany(docs), wantFp)) throw new Error(`${r.label}: fingerprints differ from the main thread's`);
    if (!sameBytes(lib.serializeSketchSet(await r.sketchMany(docs)), wantSketch)) throw new Error(`${r.label}: sketches differ from the main thread's`);
    const fp = await best(() => r.fingerprintMany(docs));
    const sk = await best(() => r.sketchMany(docs));
    const row = { label: r.label, mb, fingerprintMBs: mb / (fp / 1000), sketchMBs: mb / (sk / 1000) };
    rows.push(row);
    onRow?.(row);
  }
  return rows;
}
