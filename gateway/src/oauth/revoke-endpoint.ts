import type { Request, Response } from 'express';
import type { GatewayServices } from '../services';
import { requestingClient, requiredParam } from './clients';
import { noStore, oauthError, sendOAuthError } from './oauth-errors';

/**
 * `POST /oauth/revoke` (RFC 7009), form-encoded: an access or refresh token of the calling client
 * ends its whole grant. 200 whether or not the token existed (§2.2), so the answer reveals nothing.
 */
export function revokeEndpoint(services: GatewayServices) {
  return async (req: Request, res: Response) => {
    try {
      if (!req.is('application/x-www-form-urlencoded'))
        throw oauthError('OAUTH_INVALID_REQUEST', 'invalid_request', 'Send the revocation request as application/x-www-form-urlencoded.');
      const token = requiredParam(req, 'token');
      const client = await requestingClient(req, services);
      if (token.length <= 500) await services.billing.oauth.revoke.mutate({ token, clientId: client.clientId });
      noStore(res);
      res.status(200).end();
    } catch (error) {
      sendOAuthError(res, error);
    }
  };
}
