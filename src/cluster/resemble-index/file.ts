// An index file read from disk, its errors naming the file.
import { readFileSync } from 'node:fs';
import { ResembleError } from '../../errors.js';
import type { LoadIndexOptions } from './format.js';
import { ResembleIndex } from './resemble-index.js';

/** Takes an index file's path (and what to check); returns the index: E_IO when it cannot be read, E_FORMAT / E_PARAMS from the format, naming the file. */
export function readIndexFile(path: string, options: LoadIndexOptions = {}): ResembleIndex {
  let bytes: Uint8Array;
  try {
    const buf = readFileSync(path);
    bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
  } catch (e) {
    throw new ResembleError('E_IO', `cannot read index ${path}: ${(e as Error).message}`, { path });
  }
  try {
    return ResembleIndex.load(bytes, options);
  } catch (e) {
    // The format's own error says what is wrong; the file it is wrong in is named here.
    const code = e instanceof ResembleError ? e.code : 'E_FORMAT';
    throw new ResembleError(code, `index ${path} cannot be loaded: ${(e as Error).message}`, { path });
  }
}
