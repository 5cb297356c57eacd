import type { Request, Response } from 'express';
import { rateLimit, ipKeyGenerator } from 'express-rate-limit';
import { AppError, internalTokenHeader, isInternalToken } from '@vrs/kit';
import type { WindowCounter } from '@vrs/bus';
import { sendError } from '../errors/envelope';
import { WindowCounterStore } from './window-counter-store';

export interface RateLimitSettings {
  windowMs: number;
  /** The account's limit per window: its plan's (ADR 0032). */
  perAccount: (accountId: string) => Promise<number>;
  perIp: number;
  /** Calls carrying it (the gateway's own MCP tool calls) skip the per-IP limit: their caller's IP was counted on /mcp. */
  internalToken?: string;
}

/**
 * What every limit here shares: a window of the shared counter under `prefix`, the IETF RateLimit
 * draft's headers, and over it a 429 of `code` in the envelope, carrying `Retry-After`.
 */
export function sharedLimit(counter: WindowCounter, prefix: string, windowMs: number, code: 'RATE_LIMITED' | 'DEVICE_CODE_RATE_LIMITED') {
  return {
    windowMs,
    standardHeaders: 'draft-6' as const,
    legacyHeaders: false,
    store: new WindowCounterStore(counter, prefix),
    // A broken limit store must not take the API down with it: let requests through and log.
    passOnStoreError: true,
    handler: (req: Request, res: Response) => {
      const retryAfter = Number(res.getHeader('Retry-After')) || undefined;
      sendError(res, new AppError(code, undefined, { retryAfterSeconds: retryAfter }), req.requestId);
    },
  };
}

export const byIp = (req: Request) => ipKeyGenerator(req.ip ?? 'unknown');

/** The account a per-account limit counts: its `skip` lets only requests with a principal reach it. */
function accountOf(req: Request): string {
  if (!req.principal) throw new Error('the per-account rate limit ran for a request without a principal, which its skip leaves out');
  return req.principal.accountId;
}

/**
 * Two limits, both shared across replicas: per client IP (before anything else costs us work) and
 * per account (after the credential is known, at its plan's rate).
 */
export function createRateLimiters(counter: WindowCounter, settings: RateLimitSettings) {
  const perIp = rateLimit({
    ...sharedLimit(counter, 'ip:', settings.windowMs, 'RATE_LIMITED'),
    limit: settings.perIp,
    skip: (req) => isInternalToken(req.get(internalTokenHeader), settings.internalToken),
    keyGenerator: byIp,
  });
  const perAccount = rateLimit({
    ...sharedLimit(counter, 'acct:', settings.windowMs, 'RATE_LIMITED'),
    limit: (req) => settings.perAccount(accountOf(req)),
    skip: (req) => !req.principal,
    keyGenerator: (req) => accountOf(req),
  });
  return { perIp, perAccount };
}
