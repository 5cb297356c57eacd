import type { NextFunction, Request, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { WindowCounter } from '@vrs/bus';
import type { GatewayConfig } from '../config';
import { byIp, sharedLimit } from './limiters';

/**
 * Device codes one client IP may request per window (ADR 0036), shared by every replica. Tighter
 * than the general per-IP limit: each code is a record and a user code a guesser could aim at. Both
 * `/v1/auth/device/code` and `/oauth/device_authorization` count here.
 */
export function deviceCodeLimiter(
  counter: WindowCounter,
  config: Pick<GatewayConfig, 'DEVICE_RATE_LIMIT_WINDOW_MS' | 'DEVICE_CODE_RATE_LIMIT_PER_IP'>,
) {
  const limiter = rateLimit({
    ...sharedLimit(counter, 'device-code:ip:', config.DEVICE_RATE_LIMIT_WINDOW_MS, 'DEVICE_CODE_RATE_LIMITED'),
    limit: config.DEVICE_CODE_RATE_LIMIT_PER_IP,
    keyGenerator: byIp,
  });
  return (req: Request, res: Response, next: NextFunction) => (req.method === 'POST' ? limiter(req, res, next) : next());
}
