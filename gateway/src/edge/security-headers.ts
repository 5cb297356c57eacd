import helmet from 'helmet';

/**
 * Security headers on every answer, pages and JSON alike (ADR 0081), with helmet: a strict
 * Content-Security-Policy our pages and the Swagger UI at /v1/docs satisfy (scripts and styles from
 * our own origin only, no inline code; `frame-ancestors 'none'` so no site can frame the /device
 * Approve button), `nosniff`, `Referrer-Policy: strict-origin` (reset links carry their token in
 * the URL: only the origin leaves; `no-referrer` would make browsers send `Origin: null` on our own
 * form posts, which the CSRF checks refuse), and HSTS only when the public address is https.
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
    referrerPolicy: { policy: 'strict-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
}
