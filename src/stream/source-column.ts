/**
 * A crawl's `sources` column, kept small while the crawl streams by: a source that is a prefix (a
 * file's path and ':' for a JSONL line, '#' for a WARC record) and a number is kept as the prefix's
 * index and the number, in typed arrays (the path held once, nothing for the collector to walk);
 * any other source (a folder's file) as itself. The strings are made when asked for. Held as
 * strings, the `path:line` sources of 1,000,000 pages were enough for V8's helper threads to spend
 * 24–28 s of CPU collecting during a `dups --engine duckdb` run, against 12 s without them; at
 * 10,000,000 pages those threads took most of the machine.
 */
export class SourceColumn {
  private prefixes: string[] = [];
  private prefixIndex = new Map<string, number>();
  private last = -1;
  /** Per page: the index of its prefix, or -1 (its source is in `own`). */
  private prefixOf = new Int32Array(1024);
  private numberOf = new Float64Array(1024);
  private own = new Map<number, string>();
  private n = 0;

  get length(): number {
    return this.n;
  }

  /** Appends the next page's source. */
  push(source: string): void {
    if (this.n === this.prefixOf.length) {
      const p = new Int32Array(2 * this.n), q = new Float64Array(2 * this.n);
      p.set(this.prefixOf);
      q.set(this.numberOf);
      this.prefixOf = p;
      this.numberOf = q;
    }
    const i = this.n++;
    const cut = numberFrom(source);
    if (cut < 0) {
      this.prefixOf[i] = -1;
      this.own.set(i, source);
      return;
    }
    let k = this.last;
    // most pages come from the file the page before came from: compared without a slice
    if (k < 0 || this.prefixes[k].length !== cut || !source.startsWith(this.prefixes[k])) {
      const prefix = source.slice(0, cut);
      k = this.prefixIndex.get(prefix) ?? -1;
      if (k < 0) {
        k = this.prefixes.push(prefix) - 1;
        this.prefixIndex.set(prefix, k);
      }
      this.last = k;
    }
    this.prefixOf[i] = k;
    this.numberOf[i] = Number(source.slice(cut));
  }

  /** Takes a DocId; returns its page's source (undefined for anything but a DocId: past the end, negative or fractional). */
  at(i: number): string | undefined {
    if (!(Number.isInteger(i) && i >= 0 && i < this.n)) return undefined;
    const k = this.prefixOf[i];
    return k < 0 ? this.own.get(i) : this.prefixes[k] + this.numberOf[i];
  }

  /** Every source, as strings. */
  toArray(): string[] {
    const out = new Array<string>(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.at(i)!;
    return out;
  }
}

/**
 * Takes a source; returns where its number starts when it is a prefix ending in ':' or '#' and a
 * number that prints back as it is written (digits, no leading zero, at most 15 of them), else -1.
 */
function numberFrom(source: string): number {
  let i = source.length;
  while (i > 0) {
    const c = source.charCodeAt(i - 1);
    if (c < 48 || c > 57) break;
    i--;
  }
  const digits = source.length - i;
  if (digits === 0 || digits > 15 || i < 2) return -1;
  if (digits > 1 && source.charCodeAt(i) === 48) return -1;
  const sep = source.charCodeAt(i - 1);
  return sep === 58 || sep === 35 ? i : -1;
}
