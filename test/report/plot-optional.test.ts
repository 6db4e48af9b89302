// vega and vega-lite are optional peer dependencies: a plot draws an SVG when they are installed;
// without them renderSvg is E_ENGINE naming the packages, and a command asked for a plot says so
// before it reads anything. "Without them" is a child process whose module resolution refuses
// both packages, as Node does when they are not installed (ERR_MODULE_NOT_FOUND).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { plotSeries } from '../../src/report/plot.js';
import { root } from '../bundle/dist.js';

const dir = mkdtempSync(join(tmpdir(), 'resemble-plot-'));
const hooks = join(dir, 'no-vega.mjs');
writeFileSync(hooks, `export async function resolve(specifier, context, next) {
  if (specifier === 'vega' || specifier === 'vega-lite' || specifier.startsWith('vega/') || specifier.startsWith('vega-lite/')) {
    const e = new Error(\`Cannot find package '\${specifier}' imported from \${context.parentURL}\`);
    e.code = 'ERR_MODULE_NOT_FOUND';
    throw e;
  }
  return next(specifier, context);
}
`);
const register = join(dir, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

/** Takes a script's source; runs it from the repository root with tsx and vega hidden; returns its status and output. */
function withoutVega(source: string): { status: number | null; stdout: string; stderr: string } {
  const file = join(dir, `run-${readdirSync(dir).length}.mts`);
  writeFileSync(file, source);
  return spawnSync(process.execPath, ['--import', register, '--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
}

const plot = pathToFileURL(join(root, 'src/report/plot.ts')).href;
const main = pathToFileURL(join(root, 'src/cli/main.ts')).href;

test('with vega installed, a chart is an SVG', async () => {
  const svg = await plotSeries([{ name: 'a', points: [{ x: 1, y: 2 }, { x: 2, y: 3 }] }], { title: 't', x: 'x', y: 'y' });
  assert.match(svg, /^<svg/);
});

test('without vega, renderSvg and plotSeries are E_ENGINE naming both packages and the install', () => {
  const r = withoutVega(`import { plotSeries } from '${plot}';
try { await plotSeries([{ name: 'a', points: [{ x: 1, y: 2 }] }], { title: 't', x: 'x', y: 'y' }); console.log('drawn'); }
catch (e) { console.log(e.code, e.message, JSON.stringify(e.detail.packages)); }
`);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /^E_ENGINE plots need the optional packages vega and vega-lite; vega is not installed: npm install vega vega-lite \["vega","vega-lite"\]$/m);
});

test('without vega, a command asked for plots fails at once, before reading its input, and one without plots runs', () => {
  const out = join(dir, 'plots');
  const r = withoutVega(`import { main } from '${main}';
let err = '', out = '';
const code = await main(['study', 'sample/', '--plots', ${JSON.stringify(out)}], { stdout: { write: (s) => { out += s; return true; } }, stderr: { write: (s) => { err += s; return true; } } });
console.log(JSON.stringify({ code, err, out }));
`);
  assert.is(r.status, 0, r.stderr);
  const { code, err, out: printed } = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { code: number; err: string; out: string };
  assert.is(code, 1);
  assert.match(err, /^resemble study: plots need the optional packages vega and vega-lite; vega is not installed: npm install vega vega-lite\n$/);
  assert.is(printed, '', 'nothing was read or written');
  const plain = withoutVega(`import { main } from '${main}';
let out = '';
const code = await main(['compare', 'sample/sqlite.example.org/whentouse.html', 'sample/news.example.net/syndicated/2023-03-15-sqlite.html'], { stdout: { write: (s) => { out += s; return true; } }, stderr: { write: () => true } });
console.log(code, out.length > 0);
`);
  assert.is(plain.stdout.trim(), '0 true', plain.stderr);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
