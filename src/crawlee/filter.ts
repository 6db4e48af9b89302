// The URL filter of a crawl: any number of `{ shouldSkip(url) }` sources (a saved avoid-list, the
// mirror prefixes learned online), as Crawlee takes it: `transformRequestFunction` for
// `enqueueLinks` (Crawlee reports what it drops as skipped, reason 'filters'), and, for URLs queued
// before their prefix was recognized, the crawler's request queue (`attach`): a queued request now
// skippable is skipped as Crawlee skips one robots.txt disallows (state SKIPPED, marked handled,
// the crawler's onSkippedRequest called), never fetched, never counted as failed nor logged.
import { ResembleError } from '../errors.js';
import type { UrlSkipper } from './mirror-learner.js';

/** The part of a Crawlee request the filter reads and sets (no dependency on Crawlee itself). */
export interface RequestLike {
  url: string;
  noRetry?: boolean;
  state?: number;
  skippedReason?: string;
}

/** The part of a Crawlee request queue `attach` uses. */
export interface RequestQueueLike {
  /** Hands out the next request to fetch (Crawlee's `RequestQueue.fetchNextRequest`). */
  fetchNextRequest(...args: unknown[]): Promise<RequestLike | null | undefined>;
  /** Marks a request done (Crawlee's `RequestQueue.markRequestHandled`). */
  markRequestHandled(request: RequestLike): Promise<unknown>;
}

/** The part of a Crawlee crawler `attach` uses (and its `handleSkippedRequest`, which calls the crawler's `onSkippedRequest`, when it has one). */
export interface CrawlerLike {
  /** The crawler's request queue (Crawlee's `BasicCrawler.getRequestQueue`). */
  getRequestQueue(): Promise<RequestQueueLike>;
}

/** Crawlee's RequestState.SKIPPED. */
const REQUEST_STATE_SKIPPED = 7;

/** Queues a filter is attached to (once each). */
const attached = new WeakSet<object>();

/** Thrown by `preNavigationHook` (the fallback for crawlers without a request queue) for a queued URL that is now known to be skippable. */
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

  /** URLs skipped in all (at enqueue time and before fetching). */
  get skipped(): number {
    return this.skippedAtEnqueue + this.skippedBeforeFetch;
  }

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

  /**
   * Takes a Crawlee crawler (anything with `getRequestQueue()`); makes its request queue skip the
   * queued requests that are now skippable, Crawlee's way: the request is marked handled with state
   * SKIPPED and skippedReason 'filters', the crawler's `onSkippedRequest` is called, and the next
   * request is handed out instead. Nothing is fetched, retried, logged, or counted as failed or
   * finished. Call it once, before `crawler.run()`; returns the crawler.
   */
  async attach<C extends CrawlerLike>(crawler: C): Promise<C> {
    if (!crawler || typeof crawler.getRequestQueue !== 'function') throw new ResembleError('E_OPTION', 'expected a Crawlee crawler (with getRequestQueue()) to attach the URL filter to');
    const queue = await crawler.getRequestQueue();
    if (!queue || typeof queue.fetchNextRequest !== 'function' || typeof queue.markRequestHandled !== 'function') {
      throw new ResembleError('E_OPTION', 'expected the crawler\'s request queue to have fetchNextRequest() and markRequestHandled()');
    }
    if (attached.has(queue)) return crawler;
    attached.add(queue);
    const next = queue.fetchNextRequest.bind(queue);
    queue.fetchNextRequest = async (...args: unknown[]) => {
      for (;;) {
        const request = await next(...args);
        if (!request || !this.shouldSkip(request.url)) return request;
        this.skippedBeforeFetch++;
        request.noRetry = true;
        request.state = REQUEST_STATE_SKIPPED;
        request.skippedReason = 'filters';
        await queue.markRequestHandled(request);
        // Crawlee's own report of a skip (protected in its types, the same call its robots.txt check makes)
        const report = (crawler as unknown as { handleSkippedRequest?: (o: { url: string; reason: string }) => Promise<void> }).handleSkippedRequest;
        await report?.call(crawler, { url: request.url, reason: 'filters' });
      }
    };
    return crawler;
  }

  /** For a crawler's `preNavigationHooks`, where there is no request queue to attach to: a queued URL now skippable is not fetched (nor retried); it fails with SkippedUrlError, which the crawler logs. */
  readonly preNavigationHook = ({ request }: { request: RequestLike }): void => {
    if (!this.shouldSkip(request.url)) return;
    this.skippedBeforeFetch++;
    request.noRetry = true;
    throw new SkippedUrlError(request.url);
  };
}
