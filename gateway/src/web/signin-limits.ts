import { createHash } from 'node:crypto';
import { ipKeyGenerator } from 'express-rate-limit';
import type { WindowCount, WindowCounter } from '@vrs/bus';
import { AppError, type Logger } from '@vrs/kit';

/**
 * Sign-in attempts (and reset requests, which send mail) counted per email address and per client IP
 * in the shared window counter: the per-address limit stops guessing one account's password from many
 * addresses, the per-IP one trying many accounts from one place (429 SIGNIN_RATE_LIMITED). The address
 * is hashed into the key (the counter store is no place for personal data). A failing counter store
 * lets attempts through and logs, like the API's limits (ADR 0005).
 */
export function createSignInLimits(counter: WindowCounter, options: { perEmail: number; perIp: number; windowMs: number; log: Logger }) {
  return async function countAttempt(email: string, ip: string | undefined): Promise<void> {
    const emailKey = `signin-email:${createHash('sha256').update(email).digest('base64url')}`;
    const ipKey = `signin-ip:${ipKeyGenerator(ip ?? 'unknown')}`;
    let byEmail: WindowCount;
    let byIp: WindowCount;
    try {
      [byEmail, byIp] = await Promise.all([counter.increment(emailKey, options.windowMs), counter.increment(ipKey, options.windowMs)]);
    } catch (error) {
      options.log.warn({ err: error }, 'sign-in attempt counter unavailable; attempt allowed');
      return;
    }
    const over = [byEmail.count > options.perEmail && byEmail, byIp.count > options.perIp && byIp].filter((count) => count !== false);
    if (over.length === 0) return;
    const resetAt = Math.max(...over.map((count) => count.resetAt.getTime()));
    throw new AppError('SIGNIN_RATE_LIMITED', undefined, { retryAfterSeconds: Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)) });
  };
}

export type CountSignInAttempt = ReturnType<typeof createSignInLimits>;
