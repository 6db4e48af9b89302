// One instance of the kernels per process, whichever copy of the code loaded it; init options;
// initSync's coded error; the SIMD and scalar builds side by side.
import { createRequire } from 'node:module';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, initSync, ResembleError, sketch } from '../../src/index.js';
import { kernelBuild, simdSupported, compiledModule } from '../../src/advanced.js';
import { getKernels } from '../../src/wasm/instance.js';

const require = createRequire(import.meta.url);

function error(f: () => unknown): ResembleError {
  try { f(); } catch (e) { return e as ResembleError; }
  throw new Error('expected an error');
}

test('before init: every call throws E_NOT_INITIALIZED; initSync without a module throws E_OPTION', async () => {
  assert.is(error(() => sketch('a b c')).code, 'E_NOT_INITIALIZED');
  const e = error(() => initSync(undefined as never));
  assert.instance(e, ResembleError);
  assert.is(e.code, 'E_OPTION');
  assert.match(e.message, /initSync takes a compiled WebAssembly\.Module/);
  assert.is(error(() => initSync(new Uint8Array(8) as never)).code, 'E_OPTION');
});

test('init options are validated before anything loads', async () => {
  for (const bad of [{ build: 'fast' }, { simd: true }, 7]) {
    try {
      await init(undefined, bad as never);
      assert.unreachable(JSON.stringify(bad));
    } catch (e) {
      assert.is((e as ResembleError).code, 'E_OPTION', JSON.stringify(bad));
    }
  }
});

test('Node runs SIMD: init() picks the SIMD build', async () => {
  assert.ok(simdSupported());
  await init();
  assert.is(kernelBuild(), 'simd');
});

test('a CommonJS copy of the code sees the instance the ESM copy initialized', () => {
  // tsx loads the same sources a second time as CommonJS: separate module state, as in dist/*.cjs
  const cjs = { ...require('../../src/index.ts'), ...require('../../src/advanced-core.ts') } as typeof import('../../src/index.js') & typeof import('../../src/advanced-core.js');
  const cjsInstance = require('../../src/wasm/instance.ts') as typeof import('../../src/wasm/instance.js');
  assert.is.not(cjsInstance.getKernels, getKernels, 'a second copy of the module, not the same one');
  assert.ok(cjs.isInitialized(), 'initialized through the ESM copy');
  assert.is(cjs.compiledModule(), compiledModule());
  assert.is(cjsInstance.getKernels(), getKernels(), 'the same exports object');
  assert.equal(cjs.sketch('one two three four five six seven eight nine').values, sketch('one two three four five six seven eight nine').values);
});

test('a module that is not the kernels is refused with E_WASM naming what is missing', async () => {
  const empty = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  const fresh = await import(`../../src/wasm/instance.js?fresh=${Date.now()}`) as typeof import('../../src/wasm/instance.js');
  assert.is(error(() => fresh.instantiate(empty)).code, 'E_WASM');
  assert.match(error(() => fresh.instantiate(empty)).message, /no function _initialize/);
});

test.run();
