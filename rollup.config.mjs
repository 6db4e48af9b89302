// `rollup -c` (after `npm run build:wasm`; `npm run build` runs both, when stale): the package's dist/.
//   Node ≥ 20, ESM: dist/index.js (core), dist/node.js (the root: core, entry points, pool, readers),
//                   dist/advanced.js (the root and the algorithm steps), dist/cli.js,
//                   sharing dist/chunks/ (one WebAssembly instance however many entries are imported)
//   Node ≥ 20, CJS: dist/index.cjs, dist/node.cjs, dist/advanced.cjs (and dist/crawlee.{js,cjs}: the
//                   Crawlee integration)
//   browsers, ESM, one file each: dist/browser.js (both WASM builds inlined), dist/browser-external.js
//                   (+ dist/resemble.wasm, dist/resemble-scalar.wasm), the same two for
//                   web-resemble/advanced (dist/advanced-browser.js, dist/advanced-browser-external.js),
//                   dist/worker-browser.js (the pool's Web Worker, loaded from beside any entry)
//   types: dist/{index,node,advanced,browser,browser-external}.d.ts, sharing dist/chunks/*.d.ts; each entry also
//          exports every type its exports reach (scripts/public-types.mjs), so consumers can name them
// Node builds keep every package dependency and Node built-in external; the browser builds may
// only contain our own code, so any bare import there fails the build.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import typescript from 'typescript';
import { dts } from 'rollup-plugin-dts';
import { publicTypes } from './scripts/public-types.mjs';

// Several bundles share most sources: each file is transpiled once per `rollup -c`.
const transpiled = new Map();

/** Strips types file by file (isolatedModules); type checking is `npm run typecheck`'s job, which keeps this fast. */
function ts() {
  const options = { target: typescript.ScriptTarget.ES2022, module: typescript.ModuleKind.ESNext, verbatimModuleSyntax: false, isolatedModules: true, sourceMap: false, removeComments: true };
  return {
    name: 'resemble-strip-types',
    resolveId(id, importer) {
      // Sources import './x.js' (what Node and the emitted code load); the file on disk is x.ts.
      if (!importer || !id.startsWith('.') || !id.endsWith('.js')) return null;
      const file = resolve(dirname(importer), id.slice(0, -3) + '.ts');
      return existsSync(file) ? file : null;
    },
    transform(code, id) {
      if (!id.endsWith('.ts') || id.endsWith('.d.ts')) return null;
      const hit = transpiled.get(id);
      if (hit?.code === code) return { code: hit.out, map: null };
      const out = typescript.transpileModule(code, { compilerOptions: options, fileName: id, reportDiagnostics: true });
      const errors = (out.diagnostics ?? []).filter((d) => d.category === typescript.DiagnosticCategory.Error);
      if (errors.length) this.error(typescript.flattenDiagnosticMessageText(errors[0].messageText, '\n'));
      transpiled.set(id, { code, out: out.outputText });
      return { code: out.outputText, map: null };
    },
  };
}

const root = dirname(fileURLToPath(import.meta.url));
const bare = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !/^[A-Za-z]:[\\/]/.test(id);

/** Fails the build when a browser bundle would import a package or a Node built-in. */
function browserOnly() {
  return {
    name: 'resemble-browser-only',
    resolveId(id, importer) {
      if (importer && bare(id)) this.error(`the browser build cannot import "${id}" (from ${importer}): the core must not use packages or Node built-ins`);
      return null;
    },
  };
}

// The packages the browser builds bundle, reached only by the entry points' chunks: pure JavaScript
// with no Node built-in. Of htmlparser2 the sources take its tokenizer alone (src/graph/html-scan.ts:
// links and visible text), with the entity tables it decodes by.
const BROWSER_PACKAGES = ['entities'];
const TOKENIZER = join(root, 'node_modules/htmlparser2/dist/Tokenizer.js');
// The packages only Node paths use (WARC headers, Parquet files, the DuckDB engine, plots, progress
// bars): a stand-in whose calls throw, as for the Node built-ins.
const NODE_PACKAGES = ['warcio', 'hyparquet', 'hyparquet-writer', '@duckdb/node-api', 'vega', 'vega-lite', 'cli-progress'];

/**
 * Where a browser build differs from Node's, module by module: a Node built-in becomes
 * src/node-builtins-browser.ts's stand-in (its calls throw E_IO naming them: the entry points reach
 * them only for paths, temporary files and engines, which a browser does not give), the Node pool
 * (src/stream/pool-node.ts) its Web Worker twin (src/stream/pool-browser.ts), the packages above are
 * bundled, and in the strict-CSP builds the inlining loader is the fetching one (so no chunk carries
 * the base64 kernels).
 */
function browserPlatform({ external = false } = {}) {
  const twins = new Map([[join(root, 'src/stream/pool-node.ts'), join(root, 'src/stream/pool-browser.ts')]]);
  if (external) twins.set(join(root, 'src/wasm/loader.ts'), join(root, 'src/wasm/loader-external.ts'));
  const stub = join(root, 'src/node-builtins-browser.ts');
  const pkg = (id) => (id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0]);
  const builtin = (id) => id.startsWith('node:') || builtinModules.includes(id.split('/')[0]) || NODE_PACKAGES.includes(pkg(id));
  return {
    name: 'resemble-browser-platform',
    async resolveId(id, importer, options) {
      if (!importer) return null;
      if (id.startsWith('\0node-builtin:')) return { id, syntheticNamedExports: true, moduleSideEffects: false };
      if (builtin(id)) return { id: `\0node-builtin:${id}`, syntheticNamedExports: true, moduleSideEffects: false };
      if (id === 'htmlparser2') return { id: '\0htmlparser2-tokenizer', moduleSideEffects: false };
      if (BROWSER_PACKAGES.some((p) => id === p || id.startsWith(`${p}/`))) {
        return { id: fileURLToPath(import.meta.resolve(id)), moduleSideEffects: false };
      }
      if (!id.startsWith('.')) return null;
      const resolved = await this.resolve(id, importer, { ...options, skipSelf: true });
      const twin = resolved && twins.get(resolved.id);
      return twin && importer !== twin ? twin : null;
    },
    // Node's `process` global, where a module reads it, is the built-in's stand-in too (standard
    // input and the exit hook of spill files are named at load: they must not throw there)
    transform(code, id) {
      if (!id.startsWith(join(root, 'src')) || !/\bprocess\./.test(code)) return null;
      return { code: `import process from '\0node-builtin:process';\n${code}`, map: null };
    },
    load(id) {
      if (id === '\0htmlparser2-tokenizer') return `export { default as Tokenizer } from ${JSON.stringify(TOKENIZER)};\n`;
      if (!id.startsWith('\0node-builtin:')) return null;
      const name = id.slice('\0node-builtin:'.length);
      return `import { nodeBuiltin } from ${JSON.stringify(stub)};\nexport default nodeBuiltin(${JSON.stringify(name)});\n`;
    },
  };
}

/** Removes from dist/DIR the chunks an earlier build left (their names carry no hash: a chunk rebuilt replaces itself). */
function pruneBrowserChunks(dir) {
  return {
    name: 'resemble-prune-browser-chunks',
    writeBundle(_options, bundle) {
      const folder = join(root, 'dist', dir);
      if (!existsSync(folder)) return;
      for (const f of readdirSync(folder)) if (!(`${dir}/${f}` in bundle)) rmSync(join(folder, f));
    },
  };
}

/** Takes an entry's name; returns its output: the entry in dist/, the entry points' chunks (loaded when first called) in dist/NAME-chunks/. */
const browserOutput = (name) => ({ dir: 'dist', format: 'es', entryFileNames: `${name}.js`, chunkFileNames: `${name}-chunks/[name].js` });

/** Emits dist/resemble.wasm (SIMD) and dist/resemble-scalar.wasm for the strict-CSP entry, checked to be the bytes inlined in dist/browser.js. */
function wasmAsset() {
  return {
    name: 'resemble-wasm-asset',
    generateBundle() {
      const inline = readFileSync(join(root, 'src/wasm/inline.generated.ts'), 'utf8');
      for (const file of ['resemble.wasm', 'resemble-scalar.wasm']) {
        const bytes = readFileSync(join(root, 'build', file));
        const sha = createHash('sha256').update(bytes).digest('hex');
        if (!inline.includes(`'${sha}'`)) this.error(`build/${file} differs from src/wasm/inline.generated.ts: run \`npm run build:wasm\``);
        this.emitFile({ type: 'asset', fileName: file, source: bytes });
      }
    },
  };
}

/**
 * Emits each worker script a module names as `new URL('./x.js', import.meta.url)` (x.ts there, beside
 * it or in a folder above: '../x.js') as an entry of this build, and points the URL at the emitted file: modules move into
 * dist/chunks/, so the literal relative path would be wrong there.
 */
function workerScripts() {
  const pattern = /new URL\((['"])((?:\.\.?\/)+[\w.-]+)\.js\1,\s*import\.meta\.url\)/g;
  return {
    name: 'resemble-worker-scripts',
    transform(code, id) {
      if (!id.endsWith('.ts') || !code.includes('import.meta.url')) return null;
      let changed = false;
      const out = code.replace(pattern, (whole, _q, rel) => {
        const file = resolve(dirname(id), rel + '.ts');
        if (!existsSync(file)) return whole;
        changed = true;
        const ref = this.emitFile({ type: 'chunk', id: file, name: rel.split('/').pop() });
        return `new URL(import.meta.ROLLUP_FILE_URL_${ref})`;
      });
      return changed ? { code: out, map: null } : null;
    },
  };
}

/** A CLI command registered but not written yet stays a failing dynamic import ("not available in this build"). */
function missingCommands() {
  return {
    name: 'resemble-missing-commands',
    resolveDynamicImport(specifier, importer) {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return null;
      const base = resolve(dirname(importer), specifier).replace(/\.js$/, '');
      if (existsSync(base + '.ts') || existsSync(base + '.js')) return null;
      this.warn(`${specifier} (imported by ${importer}) does not exist: left out of the build`);
      return { id: specifier, external: true };
    },
  };
}

/** The benchmark's Python peers and their pins, shipped as dist/bench/ for `resemble bench --peers` (src/bench/python.ts finds them). */
const BENCH_PEER_FILES = ['bench/peers.py', 'bench/requirements.txt'];
function benchPeerFiles() {
  return {
    name: 'resemble-bench-peer-files',
    generateBundle() {
      for (const f of BENCH_PEER_FILES) this.emitFile({ type: 'asset', fileName: f, source: readFileSync(join(root, f)) });
    },
  };
}

/** Writes build/inputs/<name>.json: the source files of a bundle (and `extra` files it copies), so tests can tell when dist/ is stale. */
function recordInputs(name, extra = []) {
  return {
    name: 'resemble-record-inputs',
    generateBundle() {
      const files = [...[...this.getModuleIds()].filter((f) => f.startsWith(root)).map((f) => relative(root, f)), ...extra];
      mkdirSync(join(root, 'build', 'inputs'), { recursive: true });
      writeFileSync(join(root, 'build', 'inputs', `${name}.json`), JSON.stringify(files.sort(), null, 1) + '\n');
    },
  };
}

// Chunk names carry content hashes: files of earlier builds would pile up in dist/chunks/ and be
// published. The Node builds note what they write; the last one deletes the rest.
const written = new Set();
function chunksOf() {
  return { name: 'resemble-note-chunks', generateBundle(_options, bundle) { for (const f of Object.keys(bundle)) written.add(f); } };
}
function pruneChunks() {
  return {
    name: 'resemble-prune-chunks',
    writeBundle() {
      const dir = join(root, 'dist', 'chunks');
      if (!existsSync(dir)) return;
      for (const f of readdirSync(dir)) if (!written.has(`chunks/${f}`)) rmSync(join(dir, f));
    },
  };
}

/**
 * Marks each import from an optional peer dependency in the declarations with `@ts-ignore`: a
 * consumer without that package installed (DuckDB) still type-checks, its types reading as `any`.
 */
function optionalPeerTypes() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const peers = Object.entries(pkg.peerDependenciesMeta ?? {}).filter(([, meta]) => meta.optional).map(([name]) => name);
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const from = new RegExp(`^(import [^;]*? from '(${peers.map(escape).join('|')})(?:/[^']*)?';)$`, 'gm');
  return {
    name: 'resemble-optional-peer-types',
    generateBundle(_options, bundle) {
      if (!peers.length) return;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk') chunk.code = chunk.code.replace(from, '// @ts-ignore: $2 is an optional peer dependency, absent unless installed\n$1');
      }
    },
  };
}

const nodeInputs = { index: 'src/index.ts', node: 'src/node.ts', advanced: 'src/advanced.ts', crawlee: 'src/crawlee/index.ts' };
// The CLI is built when its sources are in the tree (bin/resemble.js falls back to tsx otherwise).
const cliInputs = existsSync(join(root, 'src/cli/main.ts')) ? { cli: 'src/cli/main.ts' } : {};

const browser = [
  {
    input: 'src/browser.ts',
    plugins: [browserPlatform(), browserOnly(), ts(), recordInputs('browser'), pruneBrowserChunks('browser-chunks')],
    // the entry keeps its code and also hands the chunks what they share with it
    preserveEntrySignatures: 'allow-extension',
    output: browserOutput('browser'),
  },
  {
    input: 'src/browser-external.ts',
    plugins: [browserPlatform({ external: true }), browserOnly(), ts(), wasmAsset(), recordInputs('browser-external'), pruneBrowserChunks('browser-external-chunks')],
    // the entry keeps its code and also hands the chunks what they share with it
    preserveEntrySignatures: 'allow-extension',
    output: browserOutput('browser-external'),
  },
  {
    input: 'src/advanced-browser.ts',
    plugins: [browserPlatform(), browserOnly(), ts(), recordInputs('advanced-browser'), pruneBrowserChunks('advanced-browser-chunks')],
    // the entry keeps its code and also hands the chunks what they share with it
    preserveEntrySignatures: 'allow-extension',
    output: browserOutput('advanced-browser'),
  },
  {
    // resemble.wasm and resemble-scalar.wasm come from the browser-external build above.
    input: 'src/advanced-browser-external.ts',
    plugins: [browserPlatform({ external: true }), browserOnly(), ts(), recordInputs('advanced-browser-external'), pruneBrowserChunks('advanced-browser-external-chunks')],
    // the entry keeps its code and also hands the chunks what they share with it
    preserveEntrySignatures: 'allow-extension',
    output: browserOutput('advanced-browser-external'),
  },
  {
    // The pool's module worker, loaded by both browser entries as ./worker-browser.js beside them.
    input: 'src/worker-browser.ts',
    plugins: [browserPlatform(), browserOnly(), ts(), recordInputs('worker-browser')],
    output: { file: 'dist/worker-browser.js', format: 'es' },
  },
];

const node = [
  {
    input: { ...nodeInputs, ...cliInputs },
    external: bare,
    plugins: [missingCommands(), ts(), workerScripts(), benchPeerFiles(), recordInputs('node', BENCH_PEER_FILES), chunksOf()],
    output: { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
  },
  {
    input: nodeInputs,
    external: bare,
    plugins: [ts(), workerScripts(), chunksOf()],
    output: { dir: 'dist', format: 'cjs', exports: 'named', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs' },
  },
  {
    input: { index: 'src/index.ts', node: 'src/node.ts', advanced: 'src/advanced.ts', crawlee: 'src/crawlee/index.ts', browser: 'src/browser.ts', 'browser-external': 'src/browser-external.ts' },
    external: bare,
    plugins: [publicTypes(join(root, 'dist')), dts({ tsconfig: './tsconfig.json' }), optionalPeerTypes(), recordInputs('types'), chunksOf(), pruneChunks()],
    output: { dir: 'dist', format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'chunks/[name]-[hash].d.ts' },
  },
];

/** `rollup -c` builds everything; `rollup -c --configBrowser` only the browser bundles (what the browser tests load). */
export default (args) => {
  const only = args.configBrowser === true;
  delete args.configBrowser;
  return only ? browser : [...browser, ...node];
};
