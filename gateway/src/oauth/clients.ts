import type { Request } from 'express';
import { allScopes, cliClientId, deviceGrantType, type OAuthClient, type Scope } from '@vrs/contracts';
import type { GatewayServices } from '../services';
import { oauthError } from './oauth-errors';

/** The CLI's own public client: known without registration, device grant only (ADR 0095). */
const cliClient: OAuthClient = {
  clientId: cliClientId,
  clientName: 'vrs CLI',
  redirectUris: [],
  grantTypes: [deviceGrantType, 'refresh_token'],
  createdAt: new Date(0).toISOString(),
};

/** Our public origin: PUBLIC_BASE_URL, else the scheme and host this request came to. The issuer identifier. */
export function issuerOf(req: Request, publicBaseUrl: string | undefined): string {
  return (publicBaseUrl ?? `${req.protocol}://${req.get('host')}`).replace(/\/+$/, '');
}

/** A registered client or the CLI's, or null. */
export async function findClient(services: GatewayServices, clientId: string): Promise<OAuthClient | null> {
  if (clientId === cliClientId) return cliClient;
  if (clientId.length > 100) return null;
  return services.billing.oauth.getClient.query({ clientId });
}

/**
 * The client a token-endpoint style request names (RFC 6749 §2.3: public clients send `client_id`
 * in the body; HTTP Basic with an empty secret is read too). Missing or unknown: 401 invalid_client.
 */
export async function requestingClient(req: Request, services: GatewayServices): Promise<OAuthClient> {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
  const fromBasic = basic ? decodeURIComponent(Buffer.from(basic, 'base64').toString('utf8').split(':')[0] ?? '') : undefined;
  const clientId = fromBasic || param(req, 'client_id');
  if (!clientId) throw oauthError('OAUTH_INVALID_CLIENT', 'invalid_client', 'client_id is required (public clients send it in the body).');
  const client = await findClient(services, clientId);
  if (!client) throw oauthError('OAUTH_INVALID_CLIENT', 'invalid_client', 'The client_id is not registered.');
  return client;
}

export function requireGrantType(client: OAuthClient, grantType: string): void {
  if (!client.grantTypes.includes(grantType))
    throw oauthError('OAUTH_UNAUTHORIZED_CLIENT', 'unauthorized_client', `The client is not registered for the ${grantType} grant.`);
}

/**
 * One form parameter. RFC 6749 §3.1/§3.2: a parameter sent twice is invalid_request; an empty one
 * counts as absent.
 */
export function param(req: Request, name: string): string | undefined {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(value)) throw oauthError('OAUTH_INVALID_REQUEST', 'invalid_request', `${name} was sent more than once.`);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function requiredParam(req: Request, name: string): string {
  const value = param(req, name);
  if (value === undefined) throw oauthError('OAUTH_INVALID_REQUEST', 'invalid_request', `${name} is required.`);
  return value;
}

/** RFC 6749 §3.3: space-separated; unknown names are invalid_scope; none asked: data:read (ADR 0036). */
export function parseScope(value: string | undefined): Scope[] {
  if (value === undefined || value.trim() === '') return ['data:read'];
  const names = [...new Set(value.trim().split(/\s+/))];
  const unknown = names.filter((name) => !(allScopes as readonly string[]).includes(name));
  if (unknown.length > 0) throw oauthError('OAUTH_INVALID_SCOPE', 'invalid_scope', `Unknown scope: ${unknown.join(' ')}.`);
  return names as Scope[];
}

/**
 * RFC 8707 `resource`: when a client names the resource it wants the token for, it must be one of
 * ours (the service, /v1 or /mcp); our tokens work on all of them.
 */
export function checkResource(issuer: string, value: string | undefined): void {
  if (value === undefined) return;
  const ours = [issuer, `${issuer}/v1`, `${issuer}/mcp`];
  if (!ours.includes(value.replace(/\/+$/, '')))
    throw oauthError('OAUTH_INVALID_REQUEST', 'invalid_target', `resource must be one of ${ours.join(', ')}.`);
}

const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * RFC 7591 §2 / RFC 8252 §7.3, §8.4: a redirect URI is an absolute https URL, or http on a loopback
 * address (native apps listen there), never with a fragment. Anything else is refused at registration.
 */
export function validRedirectUri(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2000) return false;
  const url = URL.parse(value);
  if (url?.hash !== '' || value.includes('#') || url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && loopbackHosts.has(url.hostname);
}
