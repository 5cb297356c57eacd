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

function rejectInEnvelope(req: Request, res: Response) {
  const retryAfter = res.getHeader('Retry-After');
  sendError(res, new AppError('RATE_LIMITED', undefined, { retryAfterSeconds: Number(retryAfter) || undefined }), req.requestId);
}

/** The account a per-account limit counts: its `skip` lets only requests with a principal reach it. */
function accountOf(req: Request): string {
  if (!req.principal) throw new Error('the per-account rate limit ran for a request without a principal, which its skip leaves out');
  return req.principal.accountId;
}

/**
 * Two limits, both shared across replicas: per client IP (before anything else costs us work) and
 * per account (after the credential is known, at its plan's rate). Headers follow the IETF RateLimit draft
 * (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`, `RateLimit-Policy`) and 429s carry
 * `Retry-After`.
 */
export function createRateLimiters(counter: WindowCounter, settings: RateLimitSettings) {
  const common = {
    windowMs: settings.windowMs,
    standardHeaders: 'draft-6' as const,
    legacyHeaders: false,
    handler: rejectInEnvelope,
    // A broken limit store must not take the API down with it: let requests through and log.
    passOnStoreError: true,
  };
  const perIp = rateLimit({
    ...common,
    limit: settings.perIp,
    store: new WindowCounterStore(counter, 'ip:'),
    skip: (req) => isInternalToken(req.get(internalTokenHeader), settings.internalToken),
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
  });
  const perAccount = rateLimit({
    ...common,
    limit: (req) => settings.perAccount(accountOf(req)),
    store: new WindowCounterStore(counter, 'acct:'),
    skip: (req) => !req.principal,
    keyGenerator: (req) => accountOf(req),
  });
  return { perIp, perAccount };
}
