import type { Request, Response } from 'express';
import { allScopes, authorizationCodeGrantType, deviceGrantType, refreshTokenGrantType } from '@vrs/contracts';
import { issuerOf } from './clients';

/** Where each endpoint of the authorization server is, relative to the issuer (ADR 0095). */
export const oauthPaths = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  deviceAuthorization: '/oauth/device_authorization',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  verification: '/device',
} as const;

/** RFC 8414 authorization-server metadata. */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: issuer + oauthPaths.authorization,
    token_endpoint: issuer + oauthPaths.token,
    device_authorization_endpoint: issuer + oauthPaths.deviceAuthorization,
    registration_endpoint: issuer + oauthPaths.registration,
    revocation_endpoint: issuer + oauthPaths.revocation,
    scopes_supported: [...allScopes],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [authorizationCodeGrantType, refreshTokenGrantType, deviceGrantType],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/v1/docs`,
  };
}

/** RFC 9728 protected-resource metadata of the service, `/v1` or `/mcp`. */
export function protectedResourceMetadata(issuer: string, resourcePath: '' | '/v1' | '/mcp') {
  return {
    resource: issuer + resourcePath,
    authorization_servers: [issuer],
    scopes_supported: [...allScopes],
    bearer_methods_supported: ['header'],
    resource_name: resourcePath === '/mcp' ? 'Video Research Service (MCP)' : 'Video Research Service API',
    resource_documentation: `${issuer}/v1/docs`,
  };
}

/** Metadata is public and the same for everyone: caches may keep it an hour (the router opens it to other origins). */
export function sendMetadata(req: Request, res: Response, publicBaseUrl: string | undefined, build: (issuer: string) => object) {
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.json(build(issuerOf(req, publicBaseUrl)));
}
