// resemble's rows of the peers table, each in a process of its own like the Python peers (so each
// row's peak RSS is its own): started by ./contenders.ts as `node contender.js KIND DIR CLOCK`, it
// loads the pages from DIR (texts.json, html.bin, html.json) and answers one JSON line per
// command on standard input — check, run, rss — as bench/peers.py does.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { serializeSketchSet } from '../sketch/serialize.js';
import { sketchMany } from '../sketch/sketch.js';
import { getKernels, getMemory, init, useBuild } from '../wasm/loader.js';
import { clockNow, type Clock } from './measure.js';
import { byteLoop } from './tasks.js';

/** Takes the folder ./contenders.ts wrote; returns the page texts and the raw HTML pages. */
function readPages(dir: string): { texts: string[]; html: Uint8Array[] } {
  const texts = JSON.parse(readFileSync(join(dir, 'texts.json'), 'utf8')) as string[];
  const blob = readFileSync(join(dir, 'html.bin'));
  const offsets = JSON.parse(readFileSync(join(dir, 'html.json'), 'utf8')) as number[];
  const html = offsets.slice(0, -1).map((a, i) => new Uint8Array(blob.buffer, blob.byteOffset + a, offsets[i + 1] - a));
  return { texts, html };
}

/**
 * The ceiling: the pages copied into WebAssembly memory once, before timing (they stay for the
 * process's life); each run reads every byte of each page once, one load and one add a byte.
 */
function byteLoopInPlace(pages: Uint8Array[]): () => number {
  const mem = getMemory(), k = getKernels();
  const at = pages.map((d) => mem.put(d));
  return () => {
    let acc = 0;
    for (let i = 0; i < pages.length; i++) acc = (acc + k.bl_bytes(at[i], pages[i].length)) >>> 0;
    return acc;
  };
}

/** KIND: text (sketchMany over the page texts, markup 'text'), html-simd or html-scalar (sketchMany over the raw HTML on that build), byte-loop (the ceiling over the HTML). */
async function main(kind: string, dir: string, clock: Clock): Promise<void> {
  if (!['text', 'html-simd', 'html-scalar', 'byte-loop'].includes(kind)) throw new Error(`unknown contender ${kind}`);
  const { texts, html } = readPages(dir);
  await init();
  if (kind === 'html-scalar') useBuild('scalar');
  const run = kind === 'text' ? () => sketchMany(texts, { markup: 'text' })
    : kind === 'byte-loop' ? byteLoopInPlace(html)
    : () => sketchMany(html);
  const now = clockNow(clock);
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    let reply: object;
    if (line === 'check') {
      const out = run();
      reply = typeof out === 'number' ? { sum: out, want: byteLoop(html) } : { sha256: createHash('sha256').update(serializeSketchSet(out)).digest('hex'), signatures: out.size };
    } else if (line === 'run') {
      const t = now();
      run();
      reply = { ms: now() - t };
    } else if (line === 'rss') {
      reply = { maxrss: process.resourceUsage().maxRSS };
    } else {
      reply = { error: `unknown command ${line}` };
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  }
}

const [kind, dir, clock] = process.argv.slice(2);
main(kind, dir, clock === 'cpu' ? 'cpu' : 'wall').catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
