import type { Request, Response } from 'express';
import type { z } from 'zod';
import { deviceGrantType, type startedDeviceAuthorizationSchema } from '@vrs/contracts';
import type { GatewayConfig } from '../config';
import type { GatewayServices } from '../services';
import { issuerOf, param, parseScope, requestingClient, requireGrantType } from './clients';
import { oauthPaths } from './metadata';
import { noStore, sendOAuthError } from './oauth-errors';

/**
 * RFC 8628 §3.2, here and at `/v1/auth/device/code`: people approve at the web app's /device, on
 * PUBLIC_BASE_URL or this request's origin.
 */
export function deviceAuthorizationResponse(
  req: Request,
  publicBaseUrl: string | undefined,
  started: z.infer<typeof startedDeviceAuthorizationSchema>,
) {
  const verificationUri = issuerOf(req, publicBaseUrl) + oauthPaths.verification;
  return {
    device_code: started.deviceCode,
    user_code: started.userCode,
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(started.userCode)}`,
    expires_in: started.expiresInSeconds,
    interval: started.intervalSeconds,
  };
}

/**
 * `POST /oauth/device_authorization` (RFC 8628 §3.1–3.2), form-encoded: the same device codes and
 * `/device` approval page as `/v1/auth/device/code` (ADR 0036), bound to the client that asked.
 */
export function deviceAuthorizationEndpoint(config: GatewayConfig, services: GatewayServices) {
  return async (req: Request, res: Response) => {
    try {
      const client = await requestingClient(req, services);
      requireGrantType(client, deviceGrantType);
      const scopes = parseScope(param(req, 'scope'));
      const started = await services.billing.device.start.mutate({
        scopes,
        clientName: client.clientName ?? client.clientId,
        expiresInSeconds: config.DEVICE_CODE_TTL_SECONDS,
        intervalSeconds: config.DEVICE_POLL_INTERVAL_SECONDS,
        ip: req.ip ?? null,
        clientId: client.clientId,
      });
      noStore(res);
      res.json(deviceAuthorizationResponse(req, config.PUBLIC_BASE_URL, started));
    } catch (error) {
      sendOAuthError(res, error);
    }
  };
}
