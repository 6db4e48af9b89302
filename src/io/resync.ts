import { open } from 'node:fs/promises';

const GZIP_MAGIC = Uint8Array.of(0x1f, 0x8b, 0x08);
const WARC_MAGIC = new TextEncoder().encode('WARC/');

function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let k = 0; k < needle.length; k++) if (hay[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Takes a WARC file and an offset past a broken record; returns the offset of the next place a
 * record may start (a gzip member header for `.warc.gz`, a `WARC/` version line otherwise), or -1.
 * A false start found inside compressed data only costs one more reported error and resync.
 */
export async function findNextRecord(path: string, from: number, gzip: boolean): Promise<number> {
  const needle = gzip ? GZIP_MAGIC : WARC_MAGIC;
  const fh = await open(path, 'r');
  try {
    const chunk = new Uint8Array(1 << 20);
    let pos = from;
    for (;;) {
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, pos);
      if (bytesRead < needle.length) return -1;
      const view = chunk.subarray(0, bytesRead);
      for (let i = indexOfBytes(view, needle, 0); i >= 0; i = indexOfBytes(view, needle, i + 1)) {
        // An uncompressed record starts a line: at the file start or right after '\n'.
        if (gzip || pos + i === 0) return pos + i;
        if (i > 0 ? view[i - 1] === 10 : await byteAt(fh, pos - 1) === 10) return pos + i;
      }
      if (bytesRead < chunk.length) return -1;
      pos += bytesRead - (needle.length - 1);
    }
  } finally {
    await fh.close();
  }
}

async function byteAt(fh: import('node:fs/promises').FileHandle, pos: number): Promise<number> {
  const one = new Uint8Array(1);
  await fh.read(one, 0, 1, pos);
  return one[0];
}
