import { rateLimit } from 'express-rate-limit';
import type { WindowCounter } from '@vrs/bus';
import { byIp, sharedLimit } from '../rate-limit/limiters';
import { noStore } from './oauth-errors';

/**
 * Requests one client IP may send to an OAuth endpoint per window, counted in the shared window
 * counter so every replica sees the same count (ADR 0095). Over it: 429 with Retry-After and an
 * RFC 6749 style body.
 */
export function oauthEndpointLimiter(counter: WindowCounter, name: string, settings: { windowMs: number; perIp: number }) {
  return rateLimit({
    ...sharedLimit(counter, `oauth-${name}:ip:`, settings.windowMs, 'RATE_LIMITED'),
    limit: settings.perIp,
    keyGenerator: byIp,
    // OAuth clients read RFC 6749's error body, not our envelope.
    handler: (_req, res) => {
      noStore(res);
      res.status(429).json({
        error: 'temporarily_unavailable',
        error_description: 'Too many OAuth requests from this network; retry after the time given in Retry-After.',
      });
    },
  });
}
