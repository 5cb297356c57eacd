import type { Logger } from '@vrs/kit';

export interface KeyUse {
  keyId: string;
  at: string;
}

/** Where authenticators report that a key was just used. */
export interface KeyUseNotes {
  note(keyId: string): void;
}

/** Uses per billing call: the touch procedure takes at most this many. */
const maxBatch = 1000;

/**
 * Remembers each key's latest use in memory and sends them to billing in batches (every `intervalMs`
 * and on shutdown), so recording `lastUsedAt` costs no store write per request. A failed flush keeps
 * its uses for the next one; uses not yet sent when the process dies are lost, which only makes a
 * lastUsedAt up to one interval older than it was.
 */
export function createKeyUseRecorder(options: {
  send: (uses: KeyUse[]) => Promise<unknown>;
  intervalMs: number;
  log: Logger;
  clock?: () => number;
}) {
  const clock = options.clock ?? Date.now;
  let pending = new Map<string, number>();
  let inFlight: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const keepLatest = (keyId: string, at: number) => {
    if ((pending.get(keyId) ?? Number.NEGATIVE_INFINITY) < at) pending.set(keyId, at);
  };

  async function sendPending(): Promise<void> {
    if (pending.size === 0) return;
    const taken = [...pending];
    pending = new Map();
    for (let start = 0; start < taken.length; start += maxBatch) {
      const batch = taken.slice(start, start + maxBatch);
      try {
        await options.send(batch.map(([keyId, at]) => ({ keyId, at: new Date(at).toISOString() })));
      } catch (err) {
        for (const [keyId, at] of batch) keepLatest(keyId, at);
        options.log.warn({ err, uses: batch.length }, 'could not record API key uses; keeping them for the next flush');
      }
    }
  }

  /** One flush at a time: a slow billing call never overlaps the next tick's. */
  const flush = (): Promise<void> => {
    inFlight = inFlight.then(sendPending);
    return inFlight;
  };

  return {
    note(keyId: string) {
      keepLatest(keyId, clock());
    },
    flush,
    start() {
      timer = setInterval(() => void flush(), options.intervalMs);
      timer.unref();
    },
    /** Stops the timer and sends what is left. */
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
