/** How often a connection is checked for the end of a burst of writes. */
export const pageCacheCheckMs = 2_000;

/** A SQLite connection as the release sees it: how many writes it has run, and how to let its cache go. */
export interface ReleasableConnection {
  writes(): number;
  /** `PRAGMA shrink_memory`: frees the pages the connection's cache holds and nothing uses. False: not now, ask again at the next check. */
  release(): boolean;
}

/**
 * Lets a connection's page cache go once a burst of writes has ended: at the first check that finds no
 * write since the previous check, which found some. A burst (an import, a project's evidence, an index
 * catching up) leaves up to the connection's `cache_size` of pages it wrote. Reads after it load again
 * only the pages they use, from the OS's file cache. A connection that is only read keeps its cache, and
 * one written without pause is released when the writes pause. Checking a counter on a timer costs a
 * write nothing. Returns the stop.
 */
export function releasePageCacheAfterWrites(connection: ReleasableConnection, everyMs = pageCacheCheckMs): () => void {
  let seen = connection.writes();
  let wroteSinceRelease = false;
  const timer = setInterval(() => {
    const writes = connection.writes();
    if (writes !== seen) {
      seen = writes;
      wroteSinceRelease = true;
      return;
    }
    if (wroteSinceRelease && connection.release()) wroteSinceRelease = false;
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
