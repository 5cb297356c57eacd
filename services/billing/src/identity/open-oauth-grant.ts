import { oauthAccessTokenPrefix, oauthRefreshTokenPrefix, type OAuthTokenSet, type Scope } from '@vrs/contracts';
import { newId } from '@vrs/kit';
import type { BillingRepo } from '../repo';
import type { SessionDoc } from '../repo/sessions';
import { generateToken, hashToken } from './tokens';

export interface OpenOAuthGrantInput {
  accountId: string;
  clientId: string;
  clientName: string | null;
  scopes: Scope[];
  accessTokenTtlSeconds: number;
  grantTtlSeconds: number;
  ip: string | null;
}

/**
 * Opens an OAuth grant (ADR 0095): a session of kind `oauth` whose token is the access token, and
 * the grant's first refresh token. Both tokens exist only in the return value; their hashes are stored.
 */
export async function openOAuthGrant(repo: BillingRepo, input: OpenOAuthGrantInput): Promise<OAuthTokenSet> {
  const accessToken = generateToken(oauthAccessTokenPrefix);
  const refreshToken = generateToken(oauthRefreshTokenPrefix);
  const now = repo.clock();
  const nowIso = new Date(now).toISOString();
  const grantEnd = new Date(now + input.grantTtlSeconds * 1000).toISOString();
  const accessEnd = new Date(Math.min(now + input.accessTokenTtlSeconds * 1000, Date.parse(grantEnd))).toISOString();
  const session: SessionDoc = {
    _id: newId('ses'),
    accountId: input.accountId,
    kind: 'oauth',
    tokenHash: hashToken(accessToken),
    scopes: input.scopes,
    csrfToken: null,
    createdAt: nowIso,
    expiresAt: grantEnd,
    lastRotatedAt: nowIso,
    previousTokenHash: null,
    previousValidUntil: null,
    revokedAt: null,
    userAgent: null,
    ip: input.ip,
    label: input.clientName ?? input.clientId,
    tokenExpiresAt: accessEnd,
    clientId: input.clientId,
  };
  await repo.oauthRefreshTokens.purge(nowIso);
  await repo.sessions.insert(session);
  await repo.oauthRefreshTokens.insert({
    _id: newId('ort'),
    tokenHash: hashToken(refreshToken),
    sessionId: session._id,
    clientId: input.clientId,
    accountId: input.accountId,
    scopes: input.scopes,
    createdAt: nowIso,
    expiresAt: grantEnd,
    usedAt: null,
  });
  return { accessToken, refreshToken, accessTokenExpiresAt: accessEnd, scopes: input.scopes, sessionId: session._id };
}
