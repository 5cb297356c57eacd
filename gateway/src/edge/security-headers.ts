import helmet from 'helmet';

/**
 * Security headers on every answer, pages and JSON alike (ADR 0081), with helmet: a strict
 * Content-Security-Policy our pages and the Swagger UI at /v1/docs satisfy (scripts and styles from
 * our own origin only, no inline code; `frame-ancestors 'none'` so no site can frame the /device
 * Approve button), `nosniff`, `Referrer-Policy: no-referrer` (reset links carry their token in the
 * URL), and HSTS only when the public address is https, as a browser would ignore it over http.
 * `form-action` is left out: a sign-in may end in a redirect to a client on another origin.
 */
export function securityHeaders(publicBaseUrl: string | undefined) {
  const https = publicBaseUrl?.startsWith('https:') ?? false;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
}
