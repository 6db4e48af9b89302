// Instructions executed per stage of raw HTML → MIN_128 sketch, counted by valgrind's callgrind
// (exact and repeatable on a busy machine, where timings are not). Each stage runs the pipeline
// up to it over the same pages: sk_stage 0 (canonical tokens and their fingerprints), 1 (+ shingle
// rolling), 2 (+ π and MIN_s selection); 3 the whole sk_sketch_batch; 4 the raw-bytes fingerprint
// alone; `loop` the byte-loop ceiling. The kernels run compiled by TurboFan only (no Liftoff tier,
// no background threads); V8's code log gives the address range of every WebAssembly function,
// and only instructions inside those ranges are counted — a process that runs the stage once less
// one that does not run it — so Node's start-up, the compiler and the garbage collector do not
// land in the figures: the same kernels and pages give the same count in every run.
//
//   node bench/instructions.mjs --corpus DIR [--every K] [--build simd|scalar] [--wasm FILE] [--stages 0,1,2,3,4,loop] [--functions]
//
// Takes every K-th .html page under DIR in sorted path order (default K = 20). Needs valgrind and
// the built kernels (npm run build:wasm; --wasm FILE counts another build of them, e.g. an older
// one kept for a before/after comparison). Prints one line per stage (instructions, per byte);
// --functions adds each stage's instructions per WebAssembly function, named from a build of the
// same sources with a name section (checked to hold the same code).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    corpus: { type: 'string' }, every: { type: 'string' }, build: { type: 'string' }, stages: { type: 'string' },
    functions: { type: 'boolean' }, child: { type: 'string' }, runs: { type: 'string' }, wasm: { type: 'string' },
  },
});

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (st?.isDirectory()) out.push(...walk(p));
    else if (st && /\.html?$/i.test(name)) out.push(p);
  }
  return out;
}

/** The child: loads the kernels, packs the pages into memory once, runs the stage `runs` times. */
async function child(stage, runs, dir, every, file) {
  const { instance } = await WebAssembly.instantiate(readFileSync(file), { env: { abort() { throw new Error('abort'); } } });
  const k = instance.exports;
  k._initialize();
  const docs = walk(dir).filter((_, i) => i % every === 0).map((p) => readFileSync(p));
  const bytes = docs.reduce((a, d) => a + d.length, 0);
  const n = docs.length;
  const need = bytes + (n + 1) * 4 + n * 128 * 8 + (n + 1) * 4 + n * 48 + n * 8 + 4096;
  const base = (k.heapBase() + 15) & ~15;
  const have = k.memory.buffer.byteLength;
  if (base + need > have) k.memory.grow(Math.ceil((base + need - have) / 65536));
  const u8 = new Uint8Array(k.memory.buffer), u32 = new Uint32Array(k.memory.buffer);
  const inPtr = base, off = (inPtr + bytes + 3) & ~3;
  let at = 0;
  for (let d = 0; d < n; d++) { u32[(off >>> 2) + d] = at; u8.set(docs[d], inPtr + at); at += docs[d].length; }
  u32[(off >>> 2) + n] = at;
  const values = (off + (n + 1) * 4 + 7) & ~7, outOff = values + n * 128 * 8, info = outOff + (n + 1) * 4 + 8, fps = info + n * 48;
  if (k.sk_configure(8, 0, 1, 0, 128, 25n, 0, 0n) !== 0) throw new Error('sk_configure');
  for (let i = 0; i < runs; i++) {
    let r;
    if (stage === 'loop') r = k.bl_bytes(inPtr, bytes);
    else if (stage === '3') r = k.sk_sketch_batch(inPtr, off, n, values, n * 128, outOff, info, 0, 0, 0);
    else if (stage === '4') r = k.rb_fingerprint_batch(inPtr, off, n, fps);
    else r = k.sk_stage(inPtr, off, n, Number(stage));
    if (typeof r === 'number' && r < 0) throw new Error(`stage ${stage}: error ${r}`);
  }
  process.stdout.write(`${n} ${bytes}\n`);
}

/** The sections of a WebAssembly module other than custom ones (what must match between the builds). */
function codeSections(bytes) {
  const out = [];
  let p = 8;
  while (p < bytes.length) {
    const id = bytes[p++];
    let size = 0, shift = 0, b;
    do { b = bytes[p++]; size += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
    if (id !== 0) out.push(Buffer.from(bytes.subarray(p, p + size)).toString('base64'));
    p += size;
  }
  return out.join(',');
}

/** Function names from a module's name section (subsection 1), by function index. */
function functionNames(bytes) {
  const names = new Map();
  const mod = new WebAssembly.Module(bytes);
  const [sec] = WebAssembly.Module.customSections(mod, 'name');
  if (!sec) return names;
  const b = new Uint8Array(sec);
  let p = 0;
  const leb = () => { let v = 0, s = 0, x; do { x = b[p++]; v += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80); return v; };
  while (p < b.length) {
    const id = b[p++], size = leb(), end = p + size;
    if (id === 1) {
      for (let count = leb(); count > 0; count--) {
        const index = leb(), len = leb();
        names.set(index, new TextDecoder().decode(b.subarray(p, p + len)));
        p += len;
      }
    }
    p = end;
  }
  return names;
}

const NODE_FLAGS = ['--no-liftoff', '--no-wasm-tier-up', '--single-threaded', '--no-opt'];

/** Runs the child under callgrind; returns instructions per WebAssembly function index, and the pages' count and bytes. */
function count(stage, runs, dir, every, file) {
  const tmp = mkdtempSync(join(tmpdir(), 'resemble-cg-'));
  try {
    const out = join(tmp, 'cg.out'), log = join(tmp, 'v8.log');
    const stdout = execFileSync('valgrind', ['--tool=callgrind', '--dump-instr=yes', '--compress-pos=no', '--compress-strings=no',
      `--callgrind-out-file=${out}`, process.execPath, ...NODE_FLAGS, '--log-code', `--logfile=${log}`, '--no-logfile-per-isolate',
      fileURLToPath(import.meta.url), '--child', stage, '--runs', String(runs), '--corpus', dir, '--every', String(every), '--wasm', file],
    { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 }).toString();
    // code-creation,JS,<kind>,<time>,<address>,<size>,wasm-function[<index>],...
    const ranges = [];
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      const m = /^code-creation,[^,]*,[^,]*,[^,]*,(0x[0-9a-f]+),(\d+),wasm-function\[(\d+)\]/.exec(line);
      if (m) ranges.push({ start: Number.parseInt(m[1], 16), end: Number.parseInt(m[1], 16) + Number(m[2]), index: Number(m[3]) });
    }
    ranges.sort((a, b) => a.start - b.start);
    const find = (addr) => {
      let lo = 0, hi = ranges.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (addr < ranges[mid].start) hi = mid - 1;
        else if (addr >= ranges[mid].end) lo = mid + 1;
        else return ranges[mid].index;
      }
      return -1;
    };
    // cost lines: "<address> <line> <Ir>"; the line after "calls=" is a call's inclusive cost, skipped
    const perFunction = new Map();
    const lines = readFileSync(out, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.startsWith('calls=')) { i++; continue; }
      if (!line.startsWith('0x')) continue;
      const [a, , ir] = line.split(' ');
      const index = find(Number.parseInt(a, 16));
      if (index >= 0) perFunction.set(index, (perFunction.get(index) ?? 0) + Number(ir));
    }
    const [n, bytes] = stdout.trim().split(' ').map(Number);
    return { perFunction, n, bytes };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (args.child !== undefined) {
  await child(args.child, Number(args.runs ?? 1), args.corpus, Number(args.every ?? 20), args.wasm);
} else {
  if (!args.corpus) throw new Error('--corpus DIR: a folder of .html pages');
  const every = Number(args.every ?? 20), build = args.build ?? 'simd';
  const file = args.wasm ?? join(root, 'build', build === 'scalar' ? 'resemble-scalar.wasm' : 'resemble.wasm');
  const stages = (args.stages ?? '0,1,2,3,4,loop').split(',');
  let names = new Map();
  if (args.functions) {
    // the same sources compiled with a name section: the same code, so the same function indices
    const tmp = mkdtempSync(join(tmpdir(), 'resemble-names-'));
    try {
      const named = join(tmp, 'named.wasm');
      execFileSync(process.execPath, [join(root, 'node_modules', 'assemblyscript', 'bin', 'asc.js'), 'assembly/index.ts', '--outFile', named,
        '-O3', '--noAssert', '--runtime', 'stub', '--exportStart', '_initialize', '--debug', ...(build === 'scalar' ? [] : ['--enable', 'simd'])], { cwd: root, stdio: 'ignore' });
      const bytes = readFileSync(named);
      if (codeSections(bytes) !== codeSections(readFileSync(file))) throw new Error(`${file} is not the build of assembly/ now: npm run build:wasm`);
      names = functionNames(bytes);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const NAMES = { 0: 'canonicalize + token fingerprints', 1: '+ shingle rolling', 2: '+ π and MIN_128 selection', 3: 'whole sketch (sk_sketch_batch)', 4: 'raw-bytes fingerprint alone', loop: 'byte loop' };
  for (const stage of stages) {
    const base = count(stage, 0, args.corpus, every, file);
    const run = count(stage, 1, args.corpus, every, file);
    const diff = new Map();
    for (const [i, v] of run.perFunction) diff.set(i, v - (base.perFunction.get(i) ?? 0));
    const ir = [...diff.values()].reduce((a, b) => a + b, 0);
    console.log(`${build} ${NAMES[stage] ?? stage}: ${(ir / 1e6).toFixed(2)} M instructions over ${run.n} pages, ${run.bytes} bytes (${(ir / run.bytes).toFixed(2)} per byte)`);
    if (args.functions) {
      for (const [i, v] of [...diff].filter(([, v]) => v !== 0).sort((a, b) => b[1] - a[1])) {
        console.log(`  ${(v / 1e6).toFixed(3).padStart(9)} M  ${(100 * v / ir).toFixed(1).padStart(5)}%  ${names.get(i) ?? `function ${i}`}`);
      }
    }
  }
}
