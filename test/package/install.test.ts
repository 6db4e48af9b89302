// The package as users get it. A fresh clone of HEAD is installed (`npm ci`, whose `prepare`
// builds the WebAssembly and all of dist/) and packed (`npm pack`); the tarball goes into one new
// project, and `npm install git+file://<clone>#<commit>` (npm installs a git dependency's
// devDependencies and runs its `prepare`) into another. In each, the ESM entry, the CommonJS
// entry and the CLI (`npx resemble`, `npx web-resemble`) must compute what the sources compute,
// without DuckDB until it is asked for. Needs the npm registry (packages come through the npm
// cache): skips with a message when it is unreachable. Takes a minute or two (two full builds).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rng, randomWords } from '../helpers/random.js';
import { root } from '../bundle/dist.js';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string>; peerDependencies: Record<string, string> };
const DUCKDB = '@duckdb/node-api';
const TIMEOUT_MS = 600_000;

/** The environment for npm and node children: none of the outer `npm test`'s npm_* settings (its prefix, its script). */
const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD'));
Object.assign(env, { FORCE_COLOR: '0', NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' });

interface Ran { status: number | null; stdout: string; stderr: string; seconds: number }
const show = (r: Ran) => `exit ${r.status}\n${r.stdout}\n${r.stderr}`.trim();

/** Runs a command to completion (concurrently with others), capturing its output. */
function run(cmd: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}): Promise<Ran> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'], timeout: TIMEOUT_MS });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr, seconds: (Date.now() - started) / 1000 }));
  });
}

/** Bytes in a folder, as `du -sb` counts them (files and links, not following links). */
function bytesIn(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? bytesIn(p) : lstatSync(p).size;
  }
  return total;
}
const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** The lines of an npm command's output that npm did not write itself (script output). */
function ownLines(r: Ran): string[] {
  return `${r.stdout}\n${r.stderr}`.split('\n').map((l) => l.trimEnd()).filter((l) =>
    l !== '' && !/^npm (warn|notice|info|error)\b/.test(l) && !/^> /.test(l) &&
    !/^(added|removed|changed|up to date|audited)\b/.test(l) && !/^\d+ packages? (are|is) looking for funding/.test(l) && !/^ {2}run `npm fund`/.test(l));
}

/** Why the install test cannot run here, or undefined. */
async function unavailable(): Promise<string | undefined> {
  if (spawnSync('git', ['--version']).status !== 0) return 'git is not installed';
  const registry = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', env }).stdout?.trim() || 'https://registry.npmjs.org/';
  try {
    const res = await fetch(registry, { method: 'HEAD', signal: AbortSignal.timeout(8000) });
    if (res.status >= 500) return `the npm registry ${registry} answers ${res.status}`;
  } catch (e) {
    return `the npm registry ${registry} is unreachable (${(e as Error).message})`;
  }
  return undefined;
}

// What the sources compute, for the installed package to reproduce.
const r = rng(77);
const base = Array.from({ length: 4 }, () => randomWords(r, 200));
const docs = base.flatMap((words) => [0, 1].map((k) => words.map((w, i) => (i % 50 === k * 3 ? `edit${k}` : w)).join(' ')));
const COMPUTE = `
  await lib.init();
  const set = lib.sketchMany(docs);
  const bytes = adv.serializeSketchSet(set);
  const nd = adv.nearDuplicates(set, { threshold: 0.5 });
  if (adv.sketchMany !== lib.sketchMany) throw new Error('web-resemble/advanced re-exports a second copy of the root');
  const sha = require('node:crypto').createHash('sha256').update(bytes).digest('hex');
  console.log(JSON.stringify({ sha, clusters: nd.clusters.count, clusterOf: Array.from(nd.clusters.clusterOf) }));`;
const ESM = `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
  const docs = JSON.parse(process.env.DOCS); const lib = await import('${pkg.name}'); const adv = await import('${pkg.name}/advanced');${COMPUTE}`;
const CJS = `(async () => { const docs = JSON.parse(process.env.DOCS); const lib = require('${pkg.name}'); const adv = require('${pkg.name}/advanced');${COMPUTE}
  })().catch((e) => { console.error(e); process.exit(1); });`;
const NO_DUCKDB = `import { DuckDBEngine } from '${pkg.name}/advanced';
  try { const e = await DuckDBEngine.open(); await e.close(); console.log(JSON.stringify({ opened: true })); }
  catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }`;

async function reference() {
  const src = await import('../../src/advanced.js');
  await src.init();
  const set = src.sketchMany(docs);
  const nd = src.nearDuplicates(set, { threshold: 0.5 });
  const sha = createHash('sha256').update(src.serializeSketchSet(set)).digest('hex');
  const cli = spawnSync(process.execPath, [join(root, 'bin', 'resemble.js'), 'dups', 'sample/'], { cwd: root, encoding: 'utf8', env });
  assert.is(cli.status, 0, cli.stderr);
  return { compute: JSON.stringify({ sha, clusters: nd.clusters.count, clusterOf: Array.from(nd.clusters.clusterOf) }), dups: cli.stdout };
}

const why = await unavailable();
if (why) {
  console.log(`skip: ${why}; the install test needs the npm registry`);
  test.skip('the package installs from npm pack and from git, and works (needs the npm registry)', () => {});
} else {
  const tmp = mkdtempSync(join(tmpdir(), 'resemble-install-'));
  const clone = join(tmp, 'clone');
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  console.log(`testing commit ${head.slice(0, 12)}${dirty ? ' (HEAD only: uncommitted changes are not in it)' : ''}`);
  const cloned = await run('git', ['clone', '--quiet', '--no-hardlinks', root, clone], tmp);
  assert.is(cloned.status, 0, show(cloned));

  const consumer = (name: string) => {
    const dir = join(tmp, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${name}`, version: '1.0.0', private: true }, null, 2));
    return dir;
  };
  const packDir = consumer('from-pack');
  const gitDir = consumer('from-git');
  const npm = (args: string[], cwd: string) => run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], cwd);

  // The two ways run side by side: the clone's install, pack and the tarball's install; the git install.
  const [viaPack, viaGit, ref] = await Promise.all([
    (async () => {
      const ci = await npm(['ci'], clone);
      if (ci.status !== 0) return { ci };
      const packed = await run('npm', ['pack', '--json', '--pack-destination', tmp], clone);
      if (packed.status !== 0) return { ci, packed };
      const info = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
      const install = await npm(['install', join(tmp, info[0].filename)], packDir);
      return { ci, packed, info: info[0], install };
    })(),
    npm(['install', `git+file://${clone}#${head}`], gitDir),
    reference(),
  ]);
  const installed = (dir: string) => join(dir, 'node_modules', pkg.name);

  test('npm ci in a fresh clone builds the WebAssembly and dist/, printing one line of its own', () => {
    assert.is(viaPack.ci.status, 0, show(viaPack.ci));
    const own = ownLines(viaPack.ci);
    // Compiler warnings are shown (they are fixed where they arise); nothing else but the one line.
    const warnings = own.filter((l) => /^\s*(WARNING\b|\(!\))/.test(l));
    const rest = own.filter((l) => !warnings.includes(l));
    console.log(`npm ci: ${viaPack.ci.seconds.toFixed(0)} s; own output: ${rest.join(' | ')}${warnings.length ? `; ${warnings.length} compiler warnings` : ''}`);
    assert.equal(rest.length, 1, rest.join('\n'));
    assert.match(rest[0], /^web-resemble: built the WebAssembly \(.*\.wasm \d+ bytes.*\) and dist\/ \(ESM, CommonJS, browser, types\)/);
  });

  test('npm pack of the clone gives a complete tarball: every entry, its types, the CLI, the sample and the linked docs', () => {
    assert.ok(viaPack.packed && viaPack.info, viaPack.packed ? show(viaPack.packed) : 'npm ci failed');
    const files = new Set(viaPack.info.files.map((f) => f.path));
    console.log(`tarball: ${MB(viaPack.info.size)}, ${MB(viaPack.info.unpackedSize)} unpacked, ${files.size} files`);
    const required = ['package.json', 'README.md', 'bin/resemble.js', 'dist/resemble.wasm', 'dist/cli.js', 'dist/worker-browser.js', 'sample/README.md', 'sample/truth.json'];
    const exports = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')).exports as Record<string, string | Record<string, string>>;
    for (const target of Object.values(exports)) required.push(...(typeof target === 'string' ? [target] : Object.values(target)).map((t) => normalize(t)));
    for (const f of required) assert.ok(files.has(f), `the tarball holds ${f}`);
    // No sources, tests, build intermediates or development scripts (a folder's README may be shipped for the links to it).
    for (const f of files) if (!f.endsWith('.md')) assert.not.match(f, /^(src|assembly|test|build|scripts|bench|eval|node_modules)\//, `${f} is not shipped`);
    // Every relative link in a shipped Markdown file points at a shipped file.
    for (const md of [...files].filter((f) => f.endsWith('.md'))) {
      for (const [, link] of readFileSync(join(clone, md), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(link)) continue;
        const target = normalize(join(dirname(md), link));
        assert.ok(files.has(target) || [...files].some((f) => f.startsWith(target + '/')), `${md} links ${link}, which the tarball holds`);
      }
    }
  });

  test('outside a project, npx runs the package by its name: the web-resemble command', async () => {
    assert.ok(viaPack.info, 'packed');
    const tarball = join(tmp, viaPack.info.filename);
    const outside = join(tmp, 'outside');
    mkdirSync(outside);
    const npxCache = join(spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8', env }).stdout.trim(), '_npx');
    try {
      // What `npx web-resemble --help` does once published: install the package, run its web-resemble bin.
      const help = await run('npx', ['--yes', '--prefer-offline', `--package=${tarball}`, 'web-resemble', '--help'], outside);
      assert.is(help.status, 0, show(help));
      assert.match(help.stdout, 'Usage: resemble <command>');
    } finally {
      // npx installed the tarball into its cache: remove that entry (and only that one).
      for (const d of existsSync(npxCache) ? readdirSync(npxCache) : []) {
        const manifest = join(npxCache, d, 'package.json');
        if (existsSync(manifest) && readFileSync(manifest, 'utf8').includes(JSON.stringify(tarball))) rmSync(join(npxCache, d), { recursive: true, force: true });
      }
    }
  });

  for (const [way, dir, done] of [['npm pack', packDir, () => viaPack.install], ['git+file://', gitDir, () => viaGit]] as const) {
    test(`installed from ${way}: the ESM entry, the CJS entry and the CLI compute what the sources compute`, async () => {
      const install = done();
      assert.ok(install, 'the install ran');
      assert.is(install.status, 0, show(install));
      const notes = `${install.stdout}\n${install.stderr}`.split('\n').filter((l) => /install-scripts\s+\S+@/.test(l)).map((l) => l.replace(/^npm warn install-scripts\s+/, ''));
      console.log(`install from ${way}: ${install.seconds.toFixed(0)} s; node_modules ${MB(bytesIn(join(dir, 'node_modules')))}; npm lists as unreviewed install scripts: ${notes.join(', ') || 'none'}`);
      assert.equal(ownLines(install), [], 'the install prints nothing of ours');
      // A tarball holds dist/ built: its package.json has no prepare (scripts/pack-manifest.mjs), so npm lists no script of ours to review.
      if (way === 'npm pack') assert.equal(notes.filter((n) => n.startsWith(`${pkg.name}@`)), [], 'the tarball has no install script of ours');
      for (const peer of ['vega', 'vega-lite']) assert.not.ok(existsSync(join(dir, 'node_modules', peer)), `${way}: ${peer}, an optional peer, is not installed`);
      for (const f of ['dist/node.js', 'dist/node.cjs', 'dist/node.d.ts', 'dist/cli.js', 'dist/resemble.wasm']) assert.ok(existsSync(join(installed(dir), f)), `${way}: ${f} installed`);
      assert.not.ok(existsSync(join(installed(dir), 'src')), `${way}: no sources installed`);
      const esm = await run(process.execPath, ['--input-type=module', '-e', ESM], dir, { DOCS: JSON.stringify(docs) });
      assert.is(esm.status, 0, show(esm));
      assert.is(esm.stdout.trim(), ref.compute, 'ESM entry');
      const cjs = await run(process.execPath, ['-e', CJS], dir, { DOCS: JSON.stringify(docs) });
      assert.is(cjs.status, 0, show(cjs));
      assert.is(cjs.stdout.trim(), ref.compute, 'CJS entry');
      const help = await run('npx', ['--no-install', 'resemble', '--help'], dir);
      assert.is(help.status, 0, show(help));
      assert.match(help.stdout, 'Usage: resemble <command>');
      assert.match(help.stdout, 'npx web-resemble');
      const dups = await run('npx', ['--no-install', 'web-resemble', 'dups', `node_modules/${pkg.name}/sample/`], dir);
      assert.is(dups.status, 0, show(dups));
      assert.ok(dups.stdout.length > 1000, 'clusters printed');
      assert.is(dups.stdout, ref.dups, 'the installed CLI prints the clusters the sources print');
    });
  }

  test('DuckDB is not installed with the package; the engine then fails with E_ENGINE naming it; installing it at the peer range works', async () => {
    assert.not.ok(existsSync(join(packDir, 'node_modules', DUCKDB)), 'no DuckDB in a plain install');
    assert.not.ok(existsSync(join(gitDir, 'node_modules', DUCKDB)), 'no DuckDB in a git install');
    const without = bytesIn(join(packDir, 'node_modules'));
    const missing = await run(process.execPath, ['--input-type=module', '-e', NO_DUCKDB], packDir);
    assert.is(missing.status, 0, show(missing));
    const err = JSON.parse(missing.stdout) as { code?: string; message?: string };
    assert.is(err.code, 'E_ENGINE');
    assert.match(err.message ?? '', `npm install ${DUCKDB}`);
    const add = await npm(['install', DUCKDB], packDir);
    assert.is(add.status, 0, show(add));
    const version = JSON.parse(readFileSync(join(packDir, 'node_modules', DUCKDB, 'package.json'), 'utf8')).version as string;
    const opened = await run(process.execPath, ['--input-type=module', '-e', NO_DUCKDB], packDir);
    assert.is(opened.stdout.trim(), JSON.stringify({ opened: true }), show(opened));
    console.log(`consumer node_modules: ${MB(without)} without DuckDB, ${MB(bytesIn(join(packDir, 'node_modules')))} with ${DUCKDB}@${version} (peer range ${pkg.peerDependencies[DUCKDB]})`);
  });

  test.after(() => rmSync(tmp, { recursive: true, force: true }));
}

test.run();
