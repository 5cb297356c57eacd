import type { Request, Response } from 'express';
import { authorizationCodeGrantType, deviceGrantType, refreshTokenGrantType } from '@vrs/contracts';
import type { GatewayServices } from '../services';
import { validRedirectUri } from './clients';
import { noStore, oauthError, sendOAuthError } from './oauth-errors';

const supportedGrantTypes = [authorizationCodeGrantType, refreshTokenGrantType, deviceGrantType];

function metadataError(description: string) {
  return oauthError('OAUTH_INVALID_CLIENT_METADATA', 'invalid_client_metadata', description);
}

function redirectUriError(description: string) {
  return oauthError('OAUTH_INVALID_REDIRECT_URI', 'invalid_redirect_uri', description);
}

/**
 * `POST /oauth/register`: RFC 7591 dynamic registration of a public client (JSON in, JSON out).
 * Every client is public (`token_endpoint_auth_method: none`, no secret): what a native app, a CLI
 * or an MCP connector can keep. A client asking for another method is registered as public and
 * told so in the answer (§3.2.1 lets the server replace values).
 */
export function registerEndpoint(services: GatewayServices) {
  return async (req: Request, res: Response) => {
    try {
      const body = req.body as Record<string, unknown> | undefined;
      if (!req.is('application/json') || typeof body !== 'object' || body === null || Array.isArray(body))
        throw metadataError('Send the client metadata as a JSON object (RFC 7591 §3.1).');
      const grantTypes = body.grant_types === undefined ? [authorizationCodeGrantType] : body.grant_types;
      if (!Array.isArray(grantTypes) || grantTypes.length === 0 || grantTypes.some((type) => !supportedGrantTypes.includes(type as string)))
        throw metadataError(`grant_types may contain only ${supportedGrantTypes.join(', ')}.`);
      const responseTypes = body.response_types ?? ['code'];
      if (!Array.isArray(responseTypes) || responseTypes.some((type) => type !== 'code'))
        throw metadataError('response_types may contain only code.');
      const redirectUris = body.redirect_uris ?? [];
      if (!Array.isArray(redirectUris) || redirectUris.length > 10)
        throw redirectUriError('redirect_uris must be an array of at most 10 URIs.');
      const invalid = redirectUris.find((uri) => !validRedirectUri(uri));
      if (invalid !== undefined)
        throw redirectUriError(
          `${JSON.stringify(invalid)}: redirect URIs must be https, or http on a loopback address (RFC 8252), without a fragment.`,
        );
      if (grantTypes.includes(authorizationCodeGrantType) && redirectUris.length === 0)
        throw redirectUriError('The authorization_code grant needs at least one redirect URI.');
      const name = body.client_name;
      if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > 100))
        throw metadataError('client_name must be a string of 1 to 100 characters.');
      const client = await services.billing.oauth.registerClient.mutate({
        clientName: typeof name === 'string' ? name.trim() : null,
        redirectUris: redirectUris as string[],
        grantTypes: [...new Set(grantTypes as string[])],
      });
      noStore(res);
      res.status(201).json({
        client_id: client.clientId,
        client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
        ...(client.clientName === null ? {} : { client_name: client.clientName }),
        redirect_uris: client.redirectUris,
        grant_types: client.grantTypes,
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      });
    } catch (error) {
      sendOAuthError(res, error);
    }
  };
}
