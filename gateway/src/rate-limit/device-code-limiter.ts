import type { NextFunction, Request, Response } from 'express';
import { rateLimit, ipKeyGenerator } from 'express-rate-limit';
import { AppError } from '@vrs/kit';
import type { WindowCounter } from '@vrs/bus';
import { sendError } from '../errors/envelope';
import { WindowCounterStore } from './window-counter-store';

/**
 * Device codes one client IP may request per window (ADR 0036), shared by every replica. Tighter
 * than the general per-IP limit: each code is a record and a user code a guesser could aim at.
 */
export function deviceCodeLimiter(counter: WindowCounter, settings: { windowMs: number; perIp: number }) {
  const limiter = rateLimit({
    windowMs: settings.windowMs,
    limit: settings.perIp,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    passOnStoreError: true,
    store: new WindowCounterStore(counter, 'device-code:ip:'),
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
    handler: (req: Request, res: Response) => {
      const retryAfter = Number(res.getHeader('Retry-After')) || undefined;
      sendError(res, new AppError('DEVICE_CODE_RATE_LIMITED', undefined, { retryAfterSeconds: retryAfter }), req.requestId);
    },
  });
  return (req: Request, res: Response, next: NextFunction) => (req.method === 'POST' ? limiter(req, res, next) : next());
}
