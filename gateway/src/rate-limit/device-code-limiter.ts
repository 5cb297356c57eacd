import type { NextFunction, Request, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { WindowCounter } from '@vrs/bus';
import { byIp, sharedLimit } from './limiters';

/**
 * Device codes one client IP may request per window (ADR 0036), shared by every replica. Tighter
 * than the general per-IP limit: each code is a record and a user code a guesser could aim at.
 */
export function deviceCodeLimiter(counter: WindowCounter, settings: { windowMs: number; perIp: number }) {
  const limiter = rateLimit({
    ...sharedLimit(counter, 'device-code:ip:', settings.windowMs, 'DEVICE_CODE_RATE_LIMITED'),
    limit: settings.perIp,
    keyGenerator: byIp,
  });
  return (req: Request, res: Response, next: NextFunction) => (req.method === 'POST' ? limiter(req, res, next) : next());
}
