import { hash as digest } from 'node:crypto';
import {
  cliSessionTokenPrefix,
  maxSessionTokenLength,
  oauthAccessTokenPrefix,
  webSessionTokenPrefix,
  type VerifiedSession,
} from '@vrs/contracts';
import { AppError, createEntryLruCache } from '@vrs/kit';
import type { GatewayServices } from '../services';
import { bearerToken, type Authenticator } from './authenticator';
import { readCookie, sessionCookieName, type SessionCookieSettings } from './session-cookie';

/**
 * Verifies web and CLI session tokens with billing, cached like API keys (ADR 0015): known and
 * unknown tokens apart, keyed by the token's hash, for `cacheTtlMs` — revocation takes effect
 * within it on every replica, at once on the replica that revoked (`forget`).
 */
export function createSessionVerifier(services: GatewayServices, options: { cacheTtlMs: number; rotateAfterMs: number }) {
  const caching = options.cacheTtlMs > 0;
  const ttl = Math.max(options.cacheTtlMs, 1);
  const known = createEntryLruCache<string, VerifiedSession>({ maxEntries: 10_000, ttl });
  const unknown = createEntryLruCache<string, true>({ maxEntries: 10_000, ttl });
  const hashOf = (token: string) => digest('sha256', token, 'base64url');
  return {
    async verify(token: string): Promise<VerifiedSession | null> {
      const hash = hashOf(token);
      if (caching) {
        const cached = known.get(hash);
        // The cache never outlives the session itself.
        if (cached && Date.parse(cached.expiresAt) > Date.now()) return cached;
        if (unknown.has(hash)) return null;
      }
      const verified = await services.billing.sessions.verify.query({ token, rotateAfterMs: options.rotateAfterMs });
      if (caching) {
        if (verified) known.set(hash, verified);
        else unknown.set(hash, true);
      }
      return verified;
    },
    /** A rotation of this token was attempted: requests still carrying it must not try again. */
    rotationSettled(token: string): void {
      const hash = hashOf(token);
      const cached = known.get(hash);
      if (cached) known.set(hash, { ...cached, rotate: false });
    },
    /** The session was ended here: stop trusting its token at once. */
    forget(token: string): void {
      known.delete(hashOf(token));
    },
    /** The account was deleted (ADR 0033): none of its cached sessions is trusted any more. */
    forgetAccount(accountId: string): void {
      for (const [hash, cached] of [...known.entries()]) if (cached.accountId === accountId) known.delete(hash);
    },
  };
}

export type SessionVerifier = ReturnType<typeof createSessionVerifier>;

/**
 * The web app's session cookie. It acts as the account owner; state-changing requests made with it
 * must pass the CSRF check (csrf.ts), and a token due for rotation is swapped by session-rotation.ts.
 */
export function sessionCookieAuthenticator(verifier: SessionVerifier, cookie: SessionCookieSettings): Authenticator {
  const name = sessionCookieName(cookie);
  return {
    scheme: 'sessionCookie',
    async authenticate(req) {
      const token = readCookie(req, name);
      if (token === undefined || token === '') return null;
      const verified =
        token.startsWith(webSessionTokenPrefix) && token.length <= maxSessionTokenLength ? await verifier.verify(token) : null;
      if (verified?.kind !== 'web') throw new AppError('SESSION_INVALID');
      return {
        accountId: verified.accountId,
        scheme: 'sessionCookie',
        scopes: 'owner',
        sessionId: verified.sessionId,
        cookieSession: { token, csrfToken: verified.csrfToken ?? '', rotate: verified.rotate },
      };
    },
  };
}

/** `Authorization: Bearer <prefix>…`: the token of a session of `kind`, holding exactly the scopes its user approved. */
function bearerSessionAuthenticator(
  verifier: SessionVerifier,
  scheme: 'cliSession' | 'oauthToken',
  prefix: string,
  kind: VerifiedSession['kind'],
): Authenticator {
  return {
    scheme,
    async authenticate(req) {
      const token = bearerToken(req);
      if (!token?.startsWith(prefix)) return null;
      const verified = token.length <= maxSessionTokenLength ? await verifier.verify(token) : null;
      if (verified?.kind !== kind || !verified.scopes) throw new AppError('SESSION_INVALID');
      return { accountId: verified.accountId, scheme, scopes: new Set(verified.scopes), sessionId: verified.sessionId };
    },
  };
}

/** `Authorization: Bearer atc_…`: a CLI session from the device flow. */
export const cliSessionAuthenticator = (verifier: SessionVerifier) =>
  bearerSessionAuthenticator(verifier, 'cliSession', cliSessionTokenPrefix, 'cli');

/** `Authorization: Bearer ato_…`: an OAuth access token (ADR 0095), the token of a session of kind `oauth`. */
export const oauthAccessTokenAuthenticator = (verifier: SessionVerifier) =>
  bearerSessionAuthenticator(verifier, 'oauthToken', oauthAccessTokenPrefix, 'oauth');
