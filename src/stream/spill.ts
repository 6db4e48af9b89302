// Spill files: what a stream writes to disk as it goes, to read parts of it back later (pages for
// the exact checks, the signatures' content tokens; sketch rows for the DuckDB engine). One
// implementation for all of them: a file in a new folder of its own, appended to through the I/O
// thread pool (writev of the caller's buffers themselves, gathered into groups of about 4 MiB), so
// the reading thread never waits for the disk unless 64 MiB are pending; removed by `remove()`,
// or when the process exits for files nobody removed (a forgotten `close()` of a library user
// would otherwise leave gigabytes behind).
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writev } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResembleError } from '../errors.js';

/** Bytes of buffers gathered before one write of them all (writev: the buffers themselves, no copy). */
const GROUP_BYTES = 4 << 20;
/** Buffers gathered at most before one write. */
const GROUP_BUFFERS = 1024;
/** Bytes written but not yet on disk past which the writer is busy (the reading waits). */
const PENDING = 64 << 20;

/** Folders of spill files not yet removed, removed when the process exits. */
const unremoved = new Set<string>();
let hooked = false;
function track(folder: string): void {
  unremoved.add(folder);
  if (hooked) return;
  hooked = true;
  process.once('exit', () => { for (const f of unremoved) rmSync(f, { recursive: true, force: true }); });
}

/** Directory for spill files when none is given. */
export function defaultSpillDir(): string {
  return tmpdir();
}

/**
 * One spill file, appended to in order. `append` hands a buffer to the writer (do not change it
 * until `onWritten` has it back, or the file is finished); `busy` says that 64 MiB are pending,
 * `drain` waits until half of them are written, `finish` waits for every write. The file stays
 * open for reading (`fd`) until `remove()`.
 */
export class SpillFile {
  readonly folder: string;
  readonly path: string;
  readonly fd: number;
  /** Bytes appended so far (the file's length once finished). */
  size = 0;
  private open = true;
  private pending = 0;
  private failed?: Error;
  private group: Uint8Array[] = [];
  private grouped = 0;
  private groupAt = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly idle: Array<() => void> = [];

  /**
   * Makes a folder `prefix…` under `dir` and the file `name` in it. `what` names the file in
   * errors; `onWritten` gets each group of buffers once it is on disk (or failed).
   */
  constructor(dir: string, prefix: string, name: string, private readonly what: string, private readonly onWritten: (buffers: readonly Uint8Array[]) => void = () => {}) {
    try {
      mkdirSync(dir, { recursive: true });
      this.folder = mkdtempSync(join(dir, prefix));
    } catch (e) {
      throw new ResembleError('E_IO', `cannot make a temporary folder in ${dir}: ${(e as Error).message}`, { path: dir });
    }
    track(this.folder);
    this.path = join(this.folder, name);
    this.fd = openSync(this.path, 'w+');
  }

  /** Appends a buffer; returns the offset it lies at. */
  append(bytes: Uint8Array): number {
    this.check();
    const at = this.size;
    if (this.grouped === 0) this.groupAt = at;
    if (bytes.length > 0) { this.group.push(bytes); this.grouped += bytes.length; }
    this.size += bytes.length;
    if (this.grouped >= GROUP_BYTES || this.group.length >= GROUP_BUFFERS) this.flush();
    return at;
  }

  get busy(): boolean {
    return this.pending > PENDING;
  }

  /** Waits while the writer is busy; throws the first write error. */
  async drain(): Promise<void> {
    if (this.pending > PENDING) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.check();
  }

  /** Writes what is gathered and waits for every write; throws the first write error. */
  async finish(): Promise<void> {
    this.flush();
    if (this.pending > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    this.check();
  }

  /** Closes the file and removes its folder. */
  remove(): void {
    if (this.open) { closeSync(this.fd); this.open = false; }
    rmSync(this.folder, { recursive: true, force: true });
    unremoved.delete(this.folder);
  }

  /** Throws the first write error. */
  check(): void {
    if (this.failed) throw new ResembleError('E_IO', `cannot write the ${this.what} ${this.path}: ${this.failed.message}`, { path: this.path });
  }

  private settle(): void {
    while (this.waiting.length && (this.pending <= PENDING / 2 || this.failed)) this.waiting.shift()!();
    while (this.idle.length && this.pending === 0) this.idle.shift()!();
  }

  private flush(): void {
    if (this.grouped === 0) return;
    const buffers = this.group, bytes = this.grouped;
    this.group = []; this.grouped = 0;
    this.pending += bytes;
    const go = (bufs: Uint8Array[], pos: number, left: number) => {
      writev(this.fd, bufs, pos, (e, n) => {
        if (!e && n < left) {
          // a short write: drop what was written and go on with the rest
          let skip = n;
          while (skip >= bufs[0].length) { skip -= bufs[0].length; bufs = bufs.slice(1); }
          bufs = [bufs[0].subarray(skip), ...bufs.slice(1)];
          go(bufs, pos + n, left - n);
          return;
        }
        if (e) this.failed ??= e;
        this.pending -= bytes;
        this.onWritten(buffers);
        this.settle();
      });
    };
    go(buffers, this.groupAt, bytes);
  }
}

/** Pages written to a spill file in read order: page d is `length[d]` bytes at `offset[d]` (NaN: not written). */
export interface Spill {
  path: string;
  offset: Float64Array;
  length: Float64Array;
  /** Removes the file and its folder. */
  remove(): void;
}

/** A page spill being written: pages by DocId (ascending; pages left out have no place), then closed into its `Spill`. */
export interface PageSpillWriter {
  spill: Spill;
  write(id: number, bytes: Uint8Array): void;
  readonly busy: boolean;
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** Opens a page spill file in a new folder under `dir`; `onWritten` gets each group of pages once they are on disk. */
export function openPageSpill(dir: string, onWritten?: (pages: readonly Uint8Array[]) => void): PageSpillWriter {
  const file = new SpillFile(dir, 'resemble-pages-', 'pages.bin', 'page spill file', onWritten);
  const offsets: number[] = [], lengths: number[] = [];
  const spill: Spill = { path: file.path, offset: new Float64Array(0), length: new Float64Array(0), remove: () => file.remove() };
  return {
    spill,
    write(id, bytes) {
      // pages not written (read back from their records) have no place here
      while (offsets.length < id) { offsets.push(NaN); lengths.push(NaN); }
      offsets[id] = file.append(bytes); lengths[id] = bytes.length;
    },
    get busy() { return file.busy; },
    drain: () => file.drain(),
    async close() {
      await file.finish();
      spill.offset = Float64Array.from(offsets); spill.length = Float64Array.from(lengths);
    },
  };
}

/**
 * Takes a spill file and DocIds (ascending runs are read in one call); returns their pages'
 * bytes packed one after another in one buffer, in the order given, with the end of each. Reads
 * only those pages.
 */
export function readSpilledPacked(spill: Spill, ids: ArrayLike<number>): { bytes: Uint8Array; ends: Uint32Array } {
  let total = 0;
  for (let i = 0; i < ids.length; i++) total += spill.length[ids[i]];
  const bytes = new Uint8Array(total), ends = new Uint32Array(ids.length);
  let fd: number;
  try {
    fd = openSync(spill.path, 'r');
  } catch (e) {
    throw new ResembleError('E_IO', `cannot read the page spill file ${spill.path}: ${(e as Error).message}`, { path: spill.path });
  }
  try {
    let at = 0;
    for (let i = 0; i < ids.length;) {
      // a run of consecutive DocIds lies in one piece of the file
      let j = i + 1;
      while (j < ids.length && ids[j] === ids[j - 1] + 1) j++;
      const from = spill.offset[ids[i]], size = spill.offset[ids[j - 1]] + spill.length[ids[j - 1]] - from;
      for (let got = 0; got < size;) {
        const n = readSync(fd, bytes, at + got, size - got, from + got);
        if (n === 0) throw new ResembleError('E_IO', `the page spill file ${spill.path} ends early`, { path: spill.path });
        got += n;
      }
      for (let k = i; k < j; k++) ends[k] = at + spill.offset[ids[k]] - from + spill.length[ids[k]];
      at += size;
      i = j;
    }
  } finally {
    closeSync(fd);
  }
  return { bytes, ends };
}

/** Takes a spill file and DocIds; returns their pages' bytes, in the order given (views on one buffer). Reads only those pages. */
export function readSpilled(spill: Spill, ids: ArrayLike<number>): Uint8Array[] {
  const { bytes, ends } = readSpilledPacked(spill, ids);
  const out: Uint8Array[] = new Array(ids.length);
  for (let i = 0, from = 0; i < ids.length; i++) { out[i] = bytes.subarray(from, ends[i]); from = ends[i]; }
  return out;
}

/** Takes a spill file, DocIds and a window size; yields the DocIds in windows of about that many bytes of pages (at least one page each) and at most `windowPages` pages. */
export function* spillWindows(spill: Spill, ids: ArrayLike<number>, windowBytes = 2 << 20, windowPages = 512): Generator<number[]> {
  let run: number[] = [], bytes = 0;
  for (let i = 0; i < ids.length; i++) {
    const d = ids[i];
    if (run.length > 0 && (bytes + spill.length[d] > windowBytes || run.length >= windowPages)) { yield run; run = []; bytes = 0; }
    run.push(d);
    bytes += spill.length[d];
  }
  if (run.length) yield run;
}
