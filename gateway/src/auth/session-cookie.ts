import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The web session cookie (ADR 0034): HttpOnly (scripts never see it), SameSite=Lax (not sent on
 * cross-site subrequests or POSTs), Path=/. In production it is `__Host-vrs_session` with Secure:
 * the prefix makes browsers refuse it unless it is Secure, host-only and Path=/, so neither plain
 * HTTP nor a sibling subdomain can plant or overwrite it.
 */
export interface SessionCookieSettings {
  secure: boolean;
}

export function sessionCookieName({ secure }: SessionCookieSettings): string {
  return secure ? '__Host-vrs_session' : 'vrs_session';
}

function cookieAttributes(settings: SessionCookieSettings, extra: string[]): string {
  return ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(settings.secure ? ['Secure'] : []), ...extra].join('; ');
}

/** The value of one cookie of the request, or undefined. */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  }
  return undefined;
}

/** Sets the cookie until the session expires; a cookie set again in one response replaces the earlier one. */
export function setSessionCookie(res: ServerResponse, settings: SessionCookieSettings, token: string, expiresAt: string): void {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  const cookie = `${sessionCookieName(settings)}=${token}; ${cookieAttributes(settings, [`Max-Age=${maxAge}`])}`;
  const others = [res.getHeader('Set-Cookie') ?? []].flat().map(String);
  res.setHeader('Set-Cookie', [...others.filter((line) => !line.startsWith(`${sessionCookieName(settings)}=`)), cookie]);
}

export function clearSessionCookie(res: ServerResponse, settings: SessionCookieSettings): void {
  res.setHeader('Set-Cookie', `${sessionCookieName(settings)}=; ${cookieAttributes(settings, ['Max-Age=0'])}`);
}
