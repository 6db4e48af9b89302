import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';

/** One line of a text input and its 1-based number. */
export interface Line {
  text: string;
  number: number;
}

/**
 * Takes a text file (gunzipped on the fly when it ends in `.gz`); yields its lines with their
 * numbers. A read or gzip error ends the lines and is rethrown after the last good line, so a
 * reader can report it with the number of the line it stopped at.
 */
export async function* readLines(path: string, onBytes: (n: number) => void = () => {}): AsyncGenerator<Line> {
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  file.on('data', (chunk) => onBytes(chunk.length));
  let failure: Error | undefined;
  let input: Readable = file;
  if (/\.gz$/i.test(path)) {
    const gunzip = createGunzip();
    file.on('error', (e) => gunzip.destroy(e));
    input = file.pipe(gunzip);
  }
  // readline ends quietly when its input fails: catch the failure here and rethrow it after the lines.
  input.on('error', (e) => {
    failure = e;
  });
  const rl = createInterface({ input, crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const text of rl) {
      number++;
      yield { text, number };
    }
  } finally {
    rl.close();
    file.destroy();
  }
  if (failure) throw failure;
}
