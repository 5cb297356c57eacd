import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { VerifiedSession } from '@vrs/contracts';
import type { GatewayServices } from '../services';
import { cliSessionAuthenticator, createSessionVerifier, sessionCookieAuthenticator } from './session-authenticators';

/** Billing's sessions.verify, answering from a fixed set of tokens and counting its calls. */
function billingWithSessions(sessions: Record<string, VerifiedSession>) {
  const calls: string[] = [];
  const services = {
    billing: {
      sessions: {
        verify: {
          query: async ({ token }: { token: string }) => {
            calls.push(token);
            return sessions[token] ?? null;
          },
        },
      },
    },
  } as unknown as GatewayServices;
  return { services, calls };
}

const later = new Date(Date.now() + 3_600_000).toISOString();
const web: VerifiedSession = {
  sessionId: 'ses_web',
  accountId: 'acct_1',
  kind: 'web',
  scopes: null,
  csrfToken: 'csrf',
  expiresAt: later,
  rotate: true,
};
const cli: VerifiedSession = { ...web, sessionId: 'ses_cli', kind: 'cli', scopes: ['data:read'], csrfToken: null, rotate: false };
const webToken = `ats_${'w'.repeat(43)}`;
const cliToken = `atc_${'c'.repeat(43)}`;

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('session verification', () => {
  it('caches known and unknown tokens; forget drops one at once; a settled rotation is not asked again', async () => {
    const { services, calls } = billingWithSessions({ [webToken]: web });
    const verifier = createSessionVerifier(services, { cacheTtlMs: 60_000, rotateAfterMs: 0 });
    expect(await verifier.verify(webToken)).toMatchObject({ sessionId: 'ses_web', rotate: true });
    expect(await verifier.verify(webToken)).toMatchObject({ rotate: true });
    expect(await verifier.verify('ats_unknown')).toBeNull();
    expect(await verifier.verify('ats_unknown')).toBeNull();
    expect(calls).toEqual([webToken, 'ats_unknown']);

    verifier.rotationSettled(webToken);
    expect(await verifier.verify(webToken)).toMatchObject({ rotate: false });
    verifier.forget(webToken);
    await verifier.verify(webToken);
    expect(calls).toEqual([webToken, 'ats_unknown', webToken]);
  });

  it('the cookie authenticates web sessions only, as the owner; the bearer scheme CLI sessions only, with their scopes', async () => {
    const { services } = billingWithSessions({ [webToken]: web, [cliToken]: cli });
    const verifier = createSessionVerifier(services, { cacheTtlMs: 0, rotateAfterMs: 0 });
    const cookie = sessionCookieAuthenticator(verifier, { secure: false });
    const bearer = cliSessionAuthenticator(verifier);

    expect(await cookie.authenticate(request({ cookie: `other=1; vrs_session=${webToken}` }))).toMatchObject({
      accountId: 'acct_1',
      scheme: 'sessionCookie',
      scopes: 'owner',
      sessionId: 'ses_web',
      cookieSession: { token: webToken, csrfToken: 'csrf', rotate: true },
    });
    const fromCli = await bearer.authenticate(request({ authorization: `Bearer ${cliToken}` }));
    expect(fromCli).toMatchObject({ scheme: 'cliSession', sessionId: 'ses_cli' });
    expect([...(fromCli!.scopes as Set<string>)]).toEqual(['data:read']);

    // Each token only in its own place; no credential of the scheme is "not mine" (null).
    await expect(cookie.authenticate(request({ cookie: `vrs_session=${cliToken}` }))).rejects.toMatchObject({ code: 'SESSION_INVALID' });
    expect(await bearer.authenticate(request({ authorization: `Bearer ${webToken}` }))).toBeNull();
    expect(await cookie.authenticate(request({}))).toBeNull();
    // The production cookie name is the only one read in production.
    const secure = sessionCookieAuthenticator(verifier, { secure: true });
    expect(await secure.authenticate(request({ cookie: `vrs_session=${webToken}` }))).toBeNull();
    expect(await secure.authenticate(request({ cookie: `__Host-vrs_session=${webToken}` }))).toMatchObject({ sessionId: 'ses_web' });
  });
});
