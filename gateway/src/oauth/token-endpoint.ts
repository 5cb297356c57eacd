import type { Request, Response } from 'express';
import { authorizationCodeGrantType, deviceGrantType, refreshTokenGrantType, type OAuthTokenSet } from '@vrs/contracts';
import type { GatewayConfig } from '../config';
import type { GatewayServices } from '../services';
import { checkResource, issuerOf, param, parseScope, requestingClient, requiredParam, requireGrantType } from './clients';
import { noStore, oauthError, sendOAuthError } from './oauth-errors';

/** Billing's token set; a device grant's may lack the refresh token. */
type Issued = Omit<OAuthTokenSet, 'refreshToken' | 'sessionId'> & Partial<Pick<OAuthTokenSet, 'refreshToken'>>;

/** RFC 6749 §5.1: the token response. `expires_in` counts from now to the access token's end. */
function sendTokens(res: Response, issued: Issued): void {
  noStore(res);
  res.json({
    access_token: issued.accessToken,
    token_type: 'Bearer',
    expires_in: Math.max(1, Math.round((Date.parse(issued.accessTokenExpiresAt) - Date.now()) / 1000)),
    ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
    scope: issued.scopes.join(' '),
  });
}

/**
 * `POST /oauth/token` (RFC 6749 §3.2), form-encoded, public clients identified by `client_id`:
 * the device-code grant (RFC 8628 §3.4), the authorization-code grant with PKCE S256 (RFC 7636), and
 * the refresh grant with rotation and reuse detection (ADR 0095). Refusals are RFC 6749 §5.2 bodies.
 */
export function tokenEndpoint(config: GatewayConfig, services: GatewayServices) {
  const lifetimes = {
    accessTokenTtlSeconds: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    grantTtlSeconds: config.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
  };
  return async (req: Request, res: Response) => {
    try {
      if (!req.is('application/x-www-form-urlencoded'))
        throw oauthError(
          'OAUTH_INVALID_REQUEST',
          'invalid_request',
          'Send the token request as application/x-www-form-urlencoded (RFC 6749 §4.1.3).',
        );
      const grantType = requiredParam(req, 'grant_type');
      const supported = [deviceGrantType, authorizationCodeGrantType, refreshTokenGrantType];
      if (!supported.includes(grantType))
        throw oauthError('UNSUPPORTED_GRANT_TYPE', 'unsupported_grant_type', `grant_type must be one of ${supported.join(', ')}.`);
      const client = await requestingClient(req, services);
      requireGrantType(client, grantType);
      checkResource(issuerOf(req, config.PUBLIC_BASE_URL), param(req, 'resource'));

      if (grantType === deviceGrantType) {
        const polled = await services.billing.device.poll.mutate({
          deviceCode: requiredParam(req, 'device_code'),
          sessionTtlMs: config.CLI_SESSION_TTL_MS,
          oauth: { clientId: client.clientId, ...lifetimes },
        });
        sendTokens(res, {
          accessToken: polled.token,
          refreshToken: polled.refreshToken,
          accessTokenExpiresAt: polled.expiresAt,
          scopes: polled.scopes,
        });
        return;
      }
      if (grantType === authorizationCodeGrantType) {
        sendTokens(
          res,
          await services.billing.oauth.exchangeCode.mutate({
            code: requiredParam(req, 'code'),
            clientId: client.clientId,
            redirectUri: requiredParam(req, 'redirect_uri'),
            codeVerifier: requiredParam(req, 'code_verifier'),
            ip: req.ip ?? null,
            ...lifetimes,
          }),
        );
        return;
      }
      const refreshToken = requiredParam(req, 'refresh_token');
      const scope = param(req, 'scope');
      sendTokens(
        res,
        await services.billing.oauth.refresh.mutate({
          refreshToken,
          clientId: client.clientId,
          scopes: scope === undefined ? undefined : parseScope(scope),
          accessTokenTtlSeconds: lifetimes.accessTokenTtlSeconds,
        }),
      );
    } catch (error) {
      sendOAuthError(res, error);
    }
  };
}
