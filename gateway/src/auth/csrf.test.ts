import { describe, expect, it } from 'vitest';
import type { Principal } from '../context';
import { csrfFailure, type CsrfRequest } from './csrf';

const origin = 'https://app.example';
const cookiePrincipal: Principal = {
  accountId: 'acct_1',
  scheme: 'sessionCookie',
  scopes: 'owner',
  sessionId: 'ses_1',
  cookieSession: { token: 'ats_x', csrfToken: 'the-session-csrf-token', rotate: false },
};

function request(overrides: Partial<CsrfRequest>): CsrfRequest {
  return { method: 'POST', principal: cookiePrincipal, origin, expectedOrigin: origin, presented: 'the-session-csrf-token', ...overrides };
}

describe('CSRF rule', () => {
  it('accepts a cookie write that carries its session token from our origin (or with no Origin)', () => {
    expect(csrfFailure(request({}))).toBeNull();
    expect(csrfFailure(request({ origin: undefined }))).toBeNull();
  });

  it('refuses a cookie write without the token, with another token, or from another origin', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'post']) {
      expect(csrfFailure(request({ method, presented: undefined }))?.code).toBe('CSRF_TOKEN_MISSING');
      expect(csrfFailure(request({ method, presented: '' }))?.code).toBe('CSRF_TOKEN_MISSING');
      expect(csrfFailure(request({ method, presented: 'the-session-csrf-tokeX' }))?.code).toBe('CSRF_TOKEN_INVALID');
      expect(csrfFailure(request({ method, presented: 'short' }))?.code).toBe('CSRF_TOKEN_INVALID');
      expect(csrfFailure(request({ method, origin: 'https://evil.example' }))?.code).toBe('CSRF_ORIGIN_MISMATCH');
      expect(csrfFailure(request({ method, origin: 'null' }))?.code).toBe('CSRF_ORIGIN_MISMATCH');
    }
    expect(csrfFailure(request({ presented: undefined }))?.status).toBe(403);
  });

  it('reads are never checked', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      expect(csrfFailure(request({ method, presented: undefined, origin: 'https://evil.example' }))).toBeNull();
    }
  });

  it('exempts credentials the caller sends on purpose, and anonymous requests', () => {
    const schemes: Principal['scheme'][] = ['bearerApiKey', 'apiKey', 'cliSession', 'demoUser'];
    for (const scheme of schemes) {
      const principal: Principal = { accountId: 'acct_1', scheme, scopes: 'owner' };
      expect(csrfFailure(request({ principal, presented: undefined, origin: 'https://evil.example' }))).toBeNull();
    }
    expect(csrfFailure(request({ principal: null, presented: undefined }))).toBeNull();
  });
});
