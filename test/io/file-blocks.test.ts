// FileBlocks against plain reads of the same file: random ranges (in order, from several streams at
// once, at random, past the end, longer than a block) give the bytes a plain read gives; ranges
// near each other share a read; a range stays right after its block was read over.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileBlocks } from '../../src/io/file-blocks.js';
import { mulberry32 } from '../../src/random.js';

const dir = mkdtempSync(join(tmpdir(), 'resemble-blocks-'));
const size = 300_000;
const data = new Uint8Array(size);
const rand = mulberry32(7);
for (let i = 0; i < size; i++) data[i] = Math.floor(rand() * 256);
const path = join(dir, 'data.bin');
writeFileSync(path, data);

function plain(fd: number, position: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  const n = readSync(fd, buf, 0, length, position);
  return buf.subarray(0, n);
}

test('ranges read through blocks are the bytes a plain read gives: in order, two streams, random, past the end, longer than a block', () => {
  const fd = openSync(path, 'r');
  try {
    const blocks = new FileBlocks(4096, 3);
    const ranges: [number, number][] = [];
    for (let p = 0; p < 50_000; p += 100 + Math.floor(rand() * 300)) ranges.push([p, 1 + Math.floor(rand() * 400)]);
    // two streams interleaved (a page and its mirror's page)
    for (let p = 0; p < 20_000; p += 500) ranges.push([p, 300], [150_000 + p, 300]);
    for (let k = 0; k < 2000; k++) ranges.push([Math.floor(rand() * (size + 100)), Math.floor(rand() * 10_000)]);
    ranges.push([size - 10, 100], [size, 5], [size + 1000, 5], [12_345, 20_000]);
    for (const [p, n] of ranges) assert.equal(blocks.read(fd, p, n), plain(fd, p, n), `range ${p}+${n}`);
  } finally {
    closeSync(fd);
  }
});

test('records near each other share one read(); a range is a view that the next read may change', () => {
  const fd = openSync(path, 'r');
  try {
    const blocks = new FileBlocks(64 << 10, 8);
    // 1,000 records of 60 bytes, in order: one read per 64 KiB
    for (let k = 0; k < 1000; k++) blocks.read(fd, k * 64, 60);
    assert.is(blocks.reads, 1);
    // two streams far apart stay in their own blocks
    const before = blocks.reads;
    for (let k = 0; k < 500; k++) { blocks.read(fd, 100_000 + k * 64, 60); blocks.read(fd, 200_000 + k * 64, 60); }
    assert.is(blocks.reads - before, 2);
    const tiny = new FileBlocks(16, 1);
    const a = tiny.read(fd, 0, 8), copy = a.slice();
    tiny.read(fd, 1000, 8);
    assert.not.equal(a, copy, 'the view was read over (callers copy what they keep)');
  } finally {
    closeSync(fd);
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
