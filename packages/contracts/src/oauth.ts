import { z } from 'zod';
import { accountIdSchema, scopeSchema } from './billing';
import { maxSessionTtlSeconds } from './sessions';

/*
 * The OAuth 2.1 authorization server (ADR 0095). Billing keeps the clients, the authorization codes
 * and the refresh tokens; an OAuth grant is a session of kind `oauth` whose token is the access
 * token. The gateway speaks the RFCs' wire format; everything here is billing's internal I/O.
 */

/** Access tokens of an OAuth grant: `Authorization: Bearer ato_…` (the gateway routes by prefix). */
export const oauthAccessTokenPrefix = 'ato_';
/** Refresh tokens: only the token endpoint accepts them. */
export const oauthRefreshTokenPrefix = 'atr_';
/** Authorization codes (RFC 6749 §4.1.2). */
export const oauthCodePrefix = 'aoc_';
/** Registered clients' ids (public, not secret). */
export const oauthClientIdPrefix = 'oac_';
/** The CLI's own client id: known without registration, device grant only (ADR 0095). */
export const cliClientId = 'vrs-cli';

export const authorizationCodeGrantType = 'authorization_code';
export const refreshTokenGrantType = 'refresh_token';

const clientIdSchema = z.string().min(1).max(100);
const secretSchema = z.string().min(1).max(200);
/** BASE64URL(SHA256(verifier)): 43 characters. */
export const codeChallengeSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
const redirectUriSchema = z.string().min(1).max(2000);
const ttlSecondsSchema = z.number().int().min(1).max(maxSessionTtlSeconds);

export const oauthClientSchema = z.object({
  clientId: z.string(),
  clientName: z.string().nullable(),
  redirectUris: z.array(z.string()),
  grantTypes: z.array(z.string()),
  createdAt: z.iso.datetime(),
});
export type OAuthClient = z.infer<typeof oauthClientSchema>;

export const registerOAuthClientInputSchema = z.strictObject({
  clientName: z.string().trim().min(1).max(100).nullable(),
  /** Validated by the gateway (https, or loopback http for native apps, RFC 8252). */
  redirectUris: z.array(redirectUriSchema).max(10),
  grantTypes: z.array(z.string().max(100)).min(1).max(5),
});
export const getOAuthClientInputSchema = z.strictObject({ clientId: clientIdSchema });

export const issueAuthorizationCodeInputSchema = z.strictObject({
  clientId: clientIdSchema,
  accountId: accountIdSchema,
  redirectUri: redirectUriSchema,
  codeChallenge: codeChallengeSchema,
  scopes: z.array(scopeSchema).min(1),
  ttlSeconds: z.number().int().min(1).max(60),
});
export const issuedAuthorizationCodeSchema = z.object({ code: z.string(), expiresAt: z.iso.datetime() });

/** What every grant's token lifetime is; the gateway owns the settings and passes them per call. */
export const oauthTokenLifetimesSchema = z.object({
  accessTokenTtlSeconds: ttlSecondsSchema,
  /** How long the grant (and so every refresh token of it) lasts, from the approval: absolute. */
  grantTtlSeconds: ttlSecondsSchema,
});

export const exchangeAuthorizationCodeInputSchema = oauthTokenLifetimesSchema
  .extend({
    code: secretSchema,
    clientId: clientIdSchema,
    redirectUri: redirectUriSchema,
    codeVerifier: z.string().max(200),
    ip: z.string().max(100).nullable().default(null),
  })
  .strict();
export const refreshOAuthGrantInputSchema = z.strictObject({
  refreshToken: secretSchema,
  clientId: clientIdSchema,
  /** RFC 6749 §6: a narrower request is checked (never more than granted); the grant keeps its scopes. */
  scopes: z.array(scopeSchema).optional(),
  accessTokenTtlSeconds: ttlSecondsSchema,
});
export const oauthTokenSetSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  accessTokenExpiresAt: z.iso.datetime(),
  scopes: z.array(scopeSchema),
  sessionId: z.string(),
});
export type OAuthTokenSet = z.infer<typeof oauthTokenSetSchema>;

/** RFC 7009: either kind of token; the answer does not say whether it existed. */
export const revokeOAuthTokenInputSchema = z.strictObject({ token: z.string().min(1).max(500), clientId: clientIdSchema });
export const revokedOAuthTokenSchema = z.object({ revoked: z.boolean() });
