// Page bytes for the streaming pipeline, carved out of a few large slabs that are used again once
// every page in them is let go, instead of a new buffer per page: a gigabyte of pages would
// otherwise be a gigabyte of buffers for the garbage collector to find (on the 1.1 GB scale crawl,
// about a third of the run's CPU time went to collecting them).
//
// A page is `hold`-ed by each user (the reader's allocation counts as one) and `release`-d by each
// when it is done; a slab is used again only when it is full and none of its pages is held. A page
// handed to code that may keep it (the template learner) is copied instead. Pages that are not the
// arena's (larger than a quarter slab, or from elsewhere) pass through `hold` / `release` untouched.

/** Default slab size: pages are carved from 8 MiB slabs; a page over a quarter of one gets a buffer of its own. */
export const SLAB_BYTES = 8 << 20;
/** Free slabs kept for reuse, at most. */
const SPARE = 16;

interface Slab { bytes: Uint8Array; used: number; held: number; full: boolean }

/** Page buffers from reused slabs; see the file comment. */
export class PageArena {
  constructor(readonly slabBytes = SLAB_BYTES) {}

  private current: Slab | undefined;
  private readonly spare: Slab[] = [];
  // weak: a full slab whose pages were dropped without a release (a record rejected after its page
  // was read) is collected with them instead of being pinned here
  private readonly slabs = new WeakMap<ArrayBufferLike, Slab>();

  /** Takes a byte count; returns a page buffer of that many bytes, held once (by the caller). */
  alloc = (n: number): Uint8Array => {
    if (n > this.slabBytes >> 2) return new Uint8Array(n);
    let s = this.current;
    if (!s || s.used + n > this.slabBytes) {
      if (s) { s.full = true; this.recycle(s); }
      s = this.spare.pop() ?? { bytes: new Uint8Array(this.slabBytes), used: 0, held: 0, full: false };
      s.used = 0; s.held = 0; s.full = false;
      this.slabs.set(s.bytes.buffer, s);
      this.current = s;
    }
    const page = s.bytes.subarray(s.used, s.used + n);
    s.used += (n + 7) & ~7;
    s.held++;
    return page;
  };

  /** One more user of a page. */
  hold(page: Uint8Array): void {
    const s = this.slabs.get(page.buffer);
    if (s) s.held++;
  }

  /** One user of a page is done with it. */
  release(page: Uint8Array): void {
    const s = this.slabs.get(page.buffer);
    if (!s) return;
    s.held--;
    this.recycle(s);
  }

  /** Puts a full slab with no page held back among the spares (or lets it go). */
  private recycle(s: Slab): void {
    if (!s.full || s.held > 0) return;
    this.slabs.delete(s.bytes.buffer);
    if (this.spare.length < SPARE) this.spare.push(s);
  }
}
