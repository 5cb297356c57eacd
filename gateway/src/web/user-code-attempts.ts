import { AppError, type Logger } from '@vrs/kit';
import type { WindowCounter } from '@vrs/bus';

/**
 * Guessing user codes on /device is limited (ADR 0036): each attempt counts against the account
 * and the client IP in a shared window; an attempt that named a real code is taken back, so only
 * wrong codes add up. Past `limit` wrong codes in the window: 429 USER_CODE_RATE_LIMITED.
 */
export function userCodeAttempts(counter: WindowCounter, options: { limit: number; windowMs: number; log: Logger }) {
  const { limit, windowMs, log } = options;
  return {
    /** Counts an attempt; call `release` on it when the code turned out to exist. */
    async begin(accountId: string, ip: string): Promise<{ release: () => Promise<void> }> {
      const keys = [`device-user-code:acct:${accountId}`, `device-user-code:ip:${ip}`];
      const release = async () => {
        await Promise.all(keys.map((key) => counter.decrement(key, windowMs))).catch((err: unknown) =>
          log.warn({ err }, 'user code attempt could not be taken back'),
        );
      };
      let counts: Awaited<ReturnType<WindowCounter['increment']>>[];
      try {
        counts = await Promise.all(keys.map((key) => counter.increment(key, windowMs)));
      } catch (err) {
        // Like the other limits: a broken counter store must not take the page down.
        log.warn({ err }, 'user code attempts not counted');
        return { release: async () => undefined };
      }
      const over = counts.filter((count) => count.count > limit);
      if (over.length > 0) {
        await release();
        const resetAt = Math.max(...over.map((count) => count.resetAt.getTime()));
        throw new AppError('USER_CODE_RATE_LIMITED', undefined, {
          retryAfterSeconds: Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)),
        });
      }
      return { release };
    },
  };
}

export type UserCodeAttempts = ReturnType<typeof userCodeAttempts>;
