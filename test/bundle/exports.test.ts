// The built package against its sources: every entry exports what its source exports (ESM, CJS
// and the .d.ts the package.json points at), the bundles compute the same sketch bytes as the
// sources, the ESM entries share one WebAssembly instance, and the worker pool finds its script.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rng, randomWords } from '../helpers/random.js';
import { dist, ensureDist, root } from './dist.js';

console.log(ensureDist('all'));
const require = createRequire(import.meta.url);
const load = (file: string) => import(pathToFileURL(dist(file)).href);
const runtimeNames = (mod: object) => Object.keys(mod).filter((k) => k !== 'default' && k !== '__esModule').sort();

// Near-duplicate families of random documents: the sketches and clusters have something to find.
const r = rng(20240611);
const base = Array.from({ length: 6 }, () => randomWords(r, 300));
const docs = base.flatMap((words) => [0, 1, 2].map((k) => words.map((w, i) => (i % 100 === k * 7 ? `edit${k}` : w)).join(' ')));

const ENTRIES: { src: string; esm: string; cjs?: string }[] = [
  { src: 'src/index.ts', esm: 'index.js', cjs: 'index.cjs' },
  { src: 'src/node.ts', esm: 'node.js', cjs: 'node.cjs' },
  { src: 'src/browser.ts', esm: 'browser.js' },
  { src: 'src/browser-external.ts', esm: 'browser-external.js' },
  { src: 'src/advanced.ts', esm: 'advanced.js', cjs: 'advanced.cjs' },
  { src: 'src/advanced-browser.ts', esm: 'advanced-browser.js' },
  { src: 'src/advanced-browser-external.ts', esm: 'advanced-browser-external.js' },
];

/**
 * Takes a browser bundle's file name; returns the names its chunks (the entry points, loaded when
 * first called, in dist/NAME-chunks/) import from it: what the bundle exports beyond its entry's
 * list, under short names, so that the chunks share its code instead of carrying a copy.
 */
function chunkImports(esm: string): Set<string> {
  const dir = dist(esm.replace(/\.js$/, '-chunks'));
  const out = new Set<string>();
  if (!esm.endsWith('.js') || !existsSync(dir)) return out;
  const from = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*'\\.\\./${esm.replace('.', '\\.')}'`, 'g');
  for (const f of readdirSync(dir)) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(from)) for (const part of m[1].split(',')) out.add(part.trim().split(/\s+as\s+/)[0]);
  }
  return out;
}

for (const e of ENTRIES) {
  test(`dist/${e.esm}${e.cjs ? ` and dist/${e.cjs}` : ''} export what ${e.src} exports`, async () => {
    const want = runtimeNames(await import(pathToFileURL(`${root}/${e.src}`).href));
    assert.ok(want.length > 10, `${e.src} exports its API`);
    const shared = chunkImports(e.esm);
    assert.equal(runtimeNames(await load(e.esm)).filter((n) => !shared.has(n) || want.includes(n)), want);
    if (e.cjs) assert.equal(runtimeNames(require(dist(e.cjs))), want);
  });
}

/** The names each .d.ts file exports (values and types), read with the TypeScript checker in one program. */
function declaredNames(files: string[]): Map<string, Set<string>> {
  // Only export lists are read: no default library needed (global types stay unresolved, harmlessly).
  const program = ts.createProgram(files, { noEmit: true, noLib: true, types: [], skipLibCheck: true });
  const checker = program.getTypeChecker();
  return new Map(files.map((f) => [f, new Set(checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(f)!)!).map((s) => s.name))]));
}

test('each package.json export has types declaring every runtime export of its target', async () => {
  const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { exports: Record<string, string | Record<string, string>> };
  const problems: string[] = [];
  const typed = Object.values(pkg.exports).flatMap((t) => (typeof t === 'object' && t.types ? [`${root}/${t.types}`] : []));
  const names = declaredNames([...new Set(typed)]);
  for (const [path, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') {
      if (!path.endsWith('.json')) assert.ok(readFileSync(`${root}/${target}`).length > 0, `${path} → ${target} exists`);
      continue;
    }
    for (const t of Object.values(target)) assert.ok(readFileSync(`${root}/${t}`).length > 0, `${path} → ${t} exists`);
    const code = target.import ?? target.browser;
    if (!target.types || !code) continue;
    const declared = names.get(`${root}/${target.types}`)!;
    for (const cond of ['import', 'browser', 'require'] as const) {
      if (!target[cond]) continue;
      const mod = cond === 'require' ? require(`${root}/${target[cond]}`) : await import(pathToFileURL(`${root}/${target[cond]}`).href);
      const shared = chunkImports(target[cond].replace(/^\.\/dist\//, ''));
      const missing = runtimeNames(mod).filter((n) => !declared.has(n) && !shared.has(n));
      if (missing.length) problems.push(`"${path}" (${cond} ${target[cond]}): ${target.types} does not declare ${missing.join(', ')}`);
    }
  }
  assert.equal(problems, []);
});

test('every bundle computes the same sketch bytes as the sources', async () => {
  const src = await import('../../src/advanced.js');
  await src.init();
  const want = src.serializeSketchSet(src.sketchMany(docs));
  const wasm = readFileSync(dist('resemble.wasm'));
  const builds = {
    'advanced.js': await load('advanced.js'), 'advanced.cjs': require(dist('advanced.cjs')), 'advanced-browser.js': await load('advanced-browser.js'),
    'advanced-browser-external.js': await load('advanced-browser-external.js'),
  };
  for (const [name, lib] of Object.entries(builds)) {
    // browser-external fetches ./resemble.wasm by default; Node's fetch has no file: URLs, so pass the bytes.
    await lib.init(name.includes('browser-external') ? wasm : undefined);
    const got: Uint8Array = lib.serializeSketchSet(lib.sketchMany(docs));
    assert.ok(Buffer.from(got).equals(Buffer.from(want)), `${name}: sketch bytes differ from the sources'`);
  }
  // The root entries have no serialization (it is in advanced): they must make the same sketches.
  const roots = { 'index.js': await load('index.js'), 'node.js': await load('node.js'), 'index.cjs': require(dist('index.cjs')), 'browser.js': await load('browser.js'), 'browser-external.js': await load('browser-external.js') };
  for (const [name, lib] of Object.entries(roots)) {
    await lib.init(name === 'browser-external.js' ? wasm : undefined);
    const got: Uint8Array = src.serializeSketchSet(lib.sketchMany(docs));
    assert.ok(Buffer.from(got).equals(Buffer.from(want)), `${name}: sketch bytes differ from the sources'`);
  }
  const clusters = (await load('advanced.js')).nearDuplicates(src.deserializeSketchSet(want), { threshold: 0.5 }).clusters;
  assert.equal(clusters.count, base.length, 'each family of three is one cluster');
});

test('the ESM entries share one WebAssembly instance (no second copy of the state)', async () => {
  const core = await load('index.js'), node = await load('node.js'), advanced = await load('advanced.js');
  await node.init();
  assert.ok(advanced.isInitialized());
  assert.is(advanced.ResembleIndex, node.ResembleIndex, 'the root classes are the same in both entries');
  assert.is(advanced.init, core.init);
});

test('the Node worker pool of the built package finds its worker script', async () => {
  for (const [name, lib] of [['node.js', await load('node.js')], ['node.cjs', require(dist('node.cjs'))], ['advanced.cjs', require(dist('advanced.cjs'))]] as const) {
    await lib.init();
    const { serializeSketchSet } = name === 'node.js' ? await load('advanced.js') : require(dist('advanced.cjs'));
    const pool = lib.createPool({ workers: 2, batchDocs: 4 });
    try {
      const got: Uint8Array = serializeSketchSet(await pool.sketchMany(docs));
      const want: Uint8Array = serializeSketchSet(lib.sketchMany(docs));
      assert.ok(Buffer.from(got).equals(Buffer.from(want)), `${name}: the pool's sketches differ`);
    } finally {
      await pool.close();
    }
  }
});

test('dist/cli.js exports the CLI main', async () => {
  const cli = await load('cli.js');
  assert.type(cli.main, 'function');
});

test.run();
