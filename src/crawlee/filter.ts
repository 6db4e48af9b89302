// The URL filter of a crawl: any number of `{ shouldSkip(url) }` sources (a saved avoid-list, the
// mirror prefixes learned online), as Crawlee takes it: `transformRequestFunction` for
// `enqueueLinks`, and a pre-navigation hook for URLs queued before their prefix was recognized.
import { ResembleError } from '../errors.js';
import type { UrlSkipper } from './mirror-learner.js';

/** The part of a Crawlee request the filter reads and sets (no dependency on Crawlee itself). */
export interface RequestLike {
  url: string;
  noRetry?: boolean;
}

/** Thrown by `preNavigationHook` for a queued URL that is now known to be skippable (it is not fetched nor retried). */
export class SkippedUrlError extends Error {
  constructor(readonly url: string) {
    super(`skipped ${url}: under a mirrored prefix or on the avoid-list`);
    this.name = 'SkippedUrlError';
  }
}

/** Skips a URL when any of its sources says so; counts what it skipped. */
export class UrlFilter implements UrlSkipper {
  private readonly sources: UrlSkipper[] = [];
  /** URLs left out at enqueue time, and queued URLs not fetched. */
  skippedAtEnqueue = 0;
  skippedBeforeFetch = 0;

  constructor(sources: readonly UrlSkipper[] = []) {
    for (const s of sources) this.add(s);
  }

  /** Adds a source: anything with `shouldSkip(url): boolean` (an `AvoidList`, a `MirrorLearner`). */
  add(source: UrlSkipper): this {
    if (!source || typeof source.shouldSkip !== 'function') throw new ResembleError('E_OPTION', 'expected an object with shouldSkip(url) for a URL filter source');
    this.sources.push(source);
    return this;
  }

  /** True when some source says the URL can be skipped. */
  shouldSkip(url: string): boolean {
    for (const s of this.sources) if (s.shouldSkip(url)) return true;
    return false;
  }

  /** For `enqueueLinks({ transformRequestFunction })`: the request, or false to leave it out. */
  readonly transformRequestFunction = <R extends RequestLike>(request: R): R | false => {
    if (!this.shouldSkip(request.url)) return request;
    this.skippedAtEnqueue++;
    return false;
  };

  /** For a crawler's `preNavigationHooks`: a queued URL now skippable is not fetched (nor retried). */
  readonly preNavigationHook = ({ request }: { request: RequestLike }): void => {
    if (!this.shouldSkip(request.url)) return;
    this.skippedBeforeFetch++;
    request.noRetry = true;
    throw new SkippedUrlError(request.url);
  };
}
