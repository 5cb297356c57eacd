import { currentWindow, type WindowCount, type WindowCounter } from './window-counter';

export interface BatchedWindowCounterOptions {
  /** How often this process's hits are added to the shared counts, and the shared counts learnt. */
  syncIntervalMs: number;
}

/** One key's window as this process sees it. */
interface LocalWindow {
  key: string;
  windowMs: number;
  windowStart: number;
  /** The shared count as of the last sync, this process's synced hits included. */
  known: number;
  /** Hits (or, negative, hits taken back) counted here since, not yet added to the shared count. */
  pending: number;
  /** Hits being added to the shared count right now: still counted here until the sync answers. */
  inFlight: number;
  syncing: boolean;
}

/**
 * A window counter that counts in this process and reconciles with a shared one (the NATS KV
 * counter) in batches (ADR 0039): a hit costs no round trip, and every `syncIntervalMs` each
 * key's hits since the last sync are added to the shared count, which comes back with what the
 * other replicas counted. A key's first hit in a window goes to the shared counter at once, so a
 * process that has just started or just met the key starts from the shared count. With one process
 * the counts are exact; across replicas a count may miss what the others admitted since its last
 * sync, so a shared limit is exceeded by at most what the other replicas admit in one interval.
 */
export function createBatchedWindowCounter(shared: WindowCounter, options: BatchedWindowCounterOptions): WindowCounter {
  const locals = new Map<string, LocalWindow>();

  function localOf(key: string, windowMs: number): { local: LocalWindow; resetAt: Date; fresh: boolean } {
    const { windowStart, resetAt } = currentWindow(windowMs);
    const id = `${windowMs} ${key}`;
    let local = locals.get(id);
    const fresh = !local || local.windowStart !== windowStart;
    if (!local || fresh) {
      local = { key, windowMs, windowStart, known: 0, pending: 0, inFlight: 0, syncing: false };
      locals.set(id, local);
    }
    return { local, resetAt, fresh };
  }

  const countOf = (local: LocalWindow) => Math.max(0, local.known + local.inFlight + local.pending);

  /** Adds the key's pending hits to the shared count; `rethrow` reports a failure (they stay pending either way). */
  async function sync(local: LocalWindow, rethrow = false): Promise<void> {
    if (local.syncing || local.pending === 0) return;
    const delta = local.pending;
    local.pending = 0;
    local.inFlight = delta;
    local.syncing = true;
    try {
      // One change of the shared count for all of them: a hit costs nothing at sync time either.
      local.known = (await shared.add(local.key, local.windowMs, delta)).count;
    } catch (error) {
      // The shared store is away: keep counting here and add these hits at the next sync.
      local.pending += delta;
      if (rethrow) throw error;
    } finally {
      local.inFlight = 0;
      local.syncing = false;
    }
  }

  const timer = setInterval(() => {
    const now = Date.now();
    for (const [id, local] of locals) {
      if (local.pending !== 0) void sync(local);
      else if (!local.syncing && local.windowStart + local.windowMs <= now) locals.delete(id);
    }
  }, options.syncIntervalMs);
  timer.unref();

  async function add(key: string, windowMs: number, delta: number): Promise<WindowCount> {
    const { local, resetAt, fresh } = localOf(key, windowMs);
    // Never below zero: hits taken back beyond the count are not owed to the next ones.
    const change = Math.max(delta, -countOf(local));
    if (change === 0 && !fresh) return { count: countOf(local), resetAt };
    local.pending += change;
    // A hit's count is taken when it happens: hits arriving while the first one's sync is out count
    // it as in flight, so every hit of this process gets its own number. The first hit's number is
    // the shared count its sync answered, which includes the other replicas' hits.
    if (!fresh) return { count: countOf(local), resetAt };
    // A caller that passes on store errors (the rate limiters) lets the request through; a readiness probe reports it.
    await sync(local, true);
    return { count: Math.max(0, local.known), resetAt };
  }

  return {
    increment: (key, windowMs) => add(key, windowMs, 1),
    decrement: (key, windowMs) => add(key, windowMs, -1),
    add,
    async reset(key) {
      for (const [id, local] of locals) if (local.key === key) locals.delete(id);
      await shared.reset(key);
    },
    async close() {
      clearInterval(timer);
      await Promise.all([...locals.values()].map((local) => sync(local)));
      await shared.close();
    },
  };
}
