import { maxSessionTokenLength, oauthAccessTokenPrefix } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import { bearerToken, type Authenticator } from '../auth/authenticator';
import type { SessionVerifier } from '../auth/session-authenticators';

/**
 * `Authorization: Bearer ato_…`: an OAuth access token (ADR 0095), verified like a CLI session (it
 * is the token of a session of kind `oauth`) and holding exactly the scopes its user approved.
 */
export function oauthAccessTokenAuthenticator(verifier: SessionVerifier): Authenticator {
  return {
    scheme: 'oauthToken',
    async authenticate(req) {
      const token = bearerToken(req);
      if (!token?.startsWith(oauthAccessTokenPrefix)) return null;
      const verified = token.length <= maxSessionTokenLength ? await verifier.verify(token) : null;
      if (verified?.kind !== 'oauth' || !verified.scopes) throw new AppError('SESSION_INVALID');
      return { accountId: verified.accountId, scheme: 'oauthToken', scopes: new Set(verified.scopes), sessionId: verified.sessionId };
    },
  };
}
