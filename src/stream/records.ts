// Where each page of a crawl can be read back alone: the origins the readers give (a line of a
// plain JSONL file, a WARC record, a folder's file) kept as small columns, about 20 bytes a page,
// instead of a copy of every page in a spill file. The exact checks read back just the pages they
// need, through the readers' own code, and check that each is the page the first pass sketched.
import { statSync } from 'node:fs';
import type { RecordOrigin } from '../graph/document.js';

/** `CrawlRecords.file` of a page with no record to read back (then it is in the spill file, if any). */
export const NO_RECORD = -1;
/** `CrawlRecords.file` of a page that is a file of its own, whose path is its source. */
export const OWN_FILE = -2;

/** An input file holding many records: how they are read, and its size and modification time when it was first read. */
export interface InputFile {
  path: string;
  kind: RecordOrigin['kind'];
  size: number;
  mtimeMs: number;
}

/** Where each page can be read back (sketchCrawl's `records`), by DocId. */
export interface CrawlRecords {
  /** Index in `files` of the file holding the page's record, OWN_FILE (a file of its own: the path is `sources[d]`) or NO_RECORD. */
  file: Int32Array;
  /** Byte offset and length of the record in that file as stored (compressed for a `.warc.gz`). */
  offset: Float64Array;
  length: Float64Array;
  files: InputFile[];
  /** The crawl's `sources` (an array, or its compact column) and `sizes`: a page of its own file is read from its source, and must come back as long as it was. */
  sources: {
    /** Takes a DocId; returns its page's source (file path or URL), if known. */
    at(d: number): string | undefined;
  };
  sizes: Float64Array;
}

/** Gathers the origins of a crawl's pages as they stream by. */
export class RecordColumns {
  private file: number[] = [];
  private offset: number[] = [];
  private length: number[] = [];
  private files: InputFile[] = [];
  private index = new Map<string, number>();
  /** The file of the last page (most pages come from the file the page before came from). */
  private last = NO_RECORD;

  /** Takes page `id` (the next DocId), its origin (if any) and its source; returns whether the page can be read back there. */
  add(id: number, origin: RecordOrigin | undefined, source: string): boolean {
    let f = NO_RECORD;
    if (origin?.kind === 'file' && origin.path === source) f = OWN_FILE;
    else if (origin && this.last >= 0 && this.files[this.last].path === origin.path && this.files[this.last].kind === origin.kind) f = this.last;
    else if (origin) {
      const key = `${origin.kind}:${origin.path}`;
      const known = this.index.get(key);
      if (known !== undefined) f = known;
      else {
        let size = NaN, mtimeMs = NaN;
        try { ({ size, mtimeMs } = statSync(origin.path)); } catch { /* checked again when read back */ }
        f = this.files.push({ path: origin.path, kind: origin.kind, size, mtimeMs }) - 1;
        this.index.set(key, f);
      }
      this.last = f;
    }
    this.file[id] = f;
    this.offset[id] = origin ? origin.offset : 0;
    this.length[id] = origin ? origin.length : 0;
    return f !== NO_RECORD;
  }

  /** Takes the crawl's sources and sizes columns; returns the records. */
  finish(sources: CrawlRecords['sources'], sizes: Float64Array): CrawlRecords {
    return { file: Int32Array.from(this.file), offset: Float64Array.from(this.offset), length: Float64Array.from(this.length), files: this.files, sources, sizes };
  }
}

/** Takes the records and a DocId; returns the origin its page is read back from, or undefined. */
export function originOf(records: CrawlRecords, d: number): RecordOrigin | undefined {
  const f = records.file[d];
  if (f === undefined || f === NO_RECORD) return undefined;
  if (f === OWN_FILE) return { path: records.sources.at(d)!, kind: 'file', offset: 0, length: records.length[d] };
  const { path, kind } = records.files[f];
  return { path, kind, offset: records.offset[d], length: records.length[d] };
}

/** Takes an input file; returns how it differs now from when it was first read (size, modification time), or undefined when it does not. */
export function changeOf(file: InputFile): string | undefined {
  let now;
  try {
    now = statSync(file.path);
  } catch (e) {
    return `no longer readable (${(e as Error).message})`;
  }
  if (now.size !== file.size) return `${file.size} bytes when read, ${now.size} now`;
  if (now.mtimeMs !== file.mtimeMs) return 'modified since it was read';
  return undefined;
}
