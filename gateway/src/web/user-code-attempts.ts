import { AppError, type Logger } from '@vrs/kit';
import type { WindowCounter, WindowCount } from '@vrs/bus';

/**
 * Guessing user codes on /device is limited (ADR 0036, ADR 0082): each attempt counts against the
 * account first, and only then against the client IP, whose bound is much higher, so one account's
 * guesses lock out that account, not its neighbours behind the same address (an office, a NAT).
 * An attempt that named a real code is taken back, so only wrong codes add up.
 */
export function userCodeAttempts(counter: WindowCounter, options: { perAccount: number; perIp: number; windowMs: number; log: Logger }) {
  const { windowMs, log } = options;
  const takeBack = (keys: string[]) =>
    Promise.all(keys.map((key) => counter.decrement(key, windowMs)))
      .then(() => undefined)
      .catch((err: unknown) => log.warn({ err }, 'user code attempt could not be taken back'));
  const refusal = (count: WindowCount) =>
    new AppError('USER_CODE_RATE_LIMITED', undefined, {
      retryAfterSeconds: Math.max(1, Math.ceil((count.resetAt.getTime() - Date.now()) / 1000)),
    });
  return {
    /** Counts an attempt; call `release` on it when the code turned out to exist. */
    async begin(accountId: string, ip: string): Promise<{ release: () => Promise<void> }> {
      const accountKey = `device-user-code:acct:${accountId}`;
      const ipKey = `device-user-code:ip:${ip}`;
      try {
        const perAccount = await counter.increment(accountKey, windowMs);
        if (perAccount.count > options.perAccount) {
          // Refused on the account's own count: the IP's count is left alone.
          await takeBack([accountKey]);
          throw refusal(perAccount);
        }
        const perIp = await counter.increment(ipKey, windowMs);
        if (perIp.count > options.perIp) {
          await takeBack([accountKey, ipKey]);
          throw refusal(perIp);
        }
      } catch (err) {
        if (err instanceof AppError) throw err;
        // Like the other limits: a broken counter store must not take the page down.
        log.warn({ err }, 'user code attempts not counted');
        return { release: async () => undefined };
      }
      return { release: () => takeBack([accountKey, ipKey]) };
    },
  };
}
