// WasmMemory, the one owner of views on WebAssembly memory: growth rebuilds the views (old views
// read as length 0 after memory.grow), scoped arenas free what they allocated even on a throw,
// and results taken out of memory survive later calls.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketch } from '../../src/index.js';
import { fingerprint, Fingerprinter } from '../../src/advanced.js';
import { getMemory, withArena } from '../../src/wasm/instance.js';
import { WasmMemory } from '../../src/wasm/memory.js';
import { rabinRef } from '../../src/reference/rabin.js';

await init();

test('an allocation past the end grows memory; views are rebuilt and data below survives', () => {
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 64 });
  const mem = new WasmMemory(memory, 100);
  const before = mem.u8;
  const a = mem.put(Uint8Array.from([1, 2, 3, 4]));
  assert.is(a % 16, 0, '16-byte aligned');
  assert.is(a, 112, 'the arena starts at the aligned base');
  const big = mem.alloc(3 * 65536);
  assert.ok(memory.buffer.byteLength >= big + 3 * 65536, `grew to ${memory.buffer.byteLength}`);
  assert.is(before.length, 0, 'the view taken before growth is detached');
  assert.equal([...mem.u8.subarray(a, a + 4)], [1, 2, 3, 4], 'bytes written before growth are still there');
  mem.u64[(big >>> 3) + 100] = 7n;
  assert.is(mem.takeU64(big + 800, 1)[0], 7n);
  assert.throws(() => mem.alloc(64 * 65536), /could not|grow|Maximum|WebAssembly/i, 'past the maximum: an error, not a silent wrap');
});

test('scoped() frees what it allocated, also when f throws; nested scopes release in order', () => {
  const mem = getMemory();
  const outer = mem.alloc(0);
  mem.scoped(() => {
    const p = mem.alloc(1000);
    mem.scoped(() => { mem.alloc(5000); });
    assert.is(mem.alloc(0), p + 1008, 'the inner scope gave its 5000 bytes back');
  });
  assert.is(mem.alloc(0), outer);
  assert.throws(() => mem.scoped(() => { mem.alloc(1 << 20); throw new Error('boom'); }), /boom/);
  assert.is(mem.alloc(0), outer, 'freed after a throw');
});

test('a batch larger than the current memory grows it once, and results stay right across growth', () => {
  const have = getMemory().memory.buffer.byteLength;
  const doc = new Uint8Array(have + (3 << 20));
  for (let i = 0; i < doc.length; i++) doc[i] = (i * 2654435761) >>> 24;
  const small = Uint8Array.from([0x61, 0x62]);
  const before = fingerprint(small);
  const fp = fingerprint(doc);   // needs more memory than there is: grows inside the call
  assert.ok(getMemory().memory.buffer.byteLength > have, 'memory grew');
  const f = new Fingerprinter();
  for (let at = 0; at < doc.length; at += 1 << 20) f.update(doc.subarray(at, at + (1 << 20)));
  assert.is(fp, f.digest(), 'one shot over grown memory equals the stream in 1 MiB pieces');
  assert.is(fingerprint(small), before, 'kernels see the same bytes after growth');
  assert.is(fp, fingerprint(doc.slice()), 'a second run over grown memory agrees');
  const prefix = doc.subarray(0, 4096);
  assert.is(fingerprint(prefix), rabinRef(prefix));
  assert.equal(sketch(prefix).values, sketch(prefix.slice()).values);
});

test('the wasm buffer is told apart from copies taken out of it', () => {
  withArena((mem) => {
    const p = mem.put(Uint8Array.from([9, 8, 7]));
    const copy = mem.takeU8(p, 3);
    assert.ok(mem.owns(mem.u8.buffer));
    assert.not.ok(mem.owns(copy.buffer));
    assert.equal([...copy], [9, 8, 7]);
  });
});

test.run();
