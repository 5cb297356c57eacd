import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { deviceCodeLimiter } from '../rate-limit/device-code-limiter';
import { html } from '../web/html';
import { formErrorPage, webPageSteps } from '../web/router';
import type { WebDeps } from '../web/web-deps';
import { authorizePages } from './authorize-page';
import { deviceAuthorizationEndpoint } from './device-authorization-endpoint';
import { authorizationServerMetadata, oauthPaths, protectedResourceMetadata, sendMetadata } from './metadata';
import { oauthEndpointLimiter } from './oauth-limits';
import { registerEndpoint } from './register-endpoint';
import { revokeEndpoint } from './revoke-endpoint';
import { tokenEndpoint } from './token-endpoint';

/** Clients in a browser (an MCP inspector, a single-page app) call these endpoints cross-origin; none uses cookies. */
function openToOtherOrigins(req: Request, res: Response, next: NextFunction) {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
}

/**
 * The OAuth 2.1 authorization server (ADR 0095), outside /v1: RFC 8414 and RFC 9728 metadata, RFC
 * 7591 registration, RFC 8628 device authorization, the token endpoint, RFC 7009 revocation, and the
 * consent page. Everything is under the general per-IP limit; token and registration have their own.
 */
export function createOAuthRouter(deps: WebDeps & { perIp: RequestHandler }): Router {
  const { config, services, counter, perIp } = deps;
  const oauth = Router();
  const form = express.urlencoded({ extended: false, limit: config.BODY_LIMIT_BYTES, parameterLimit: 50 });
  const window = { windowMs: config.OAUTH_RATE_LIMIT_WINDOW_MS };
  const tokenLimit = oauthEndpointLimiter(counter, 'token', { ...window, perIp: config.OAUTH_TOKEN_REQUESTS_PER_IP });
  const registrationLimit = oauthEndpointLimiter(counter, 'register', { ...window, perIp: config.OAUTH_REGISTRATIONS_PER_IP });
  const deviceLimit = deviceCodeLimiter(counter, config);
  const open = [perIp, openToOtherOrigins];

  const base = config.PUBLIC_BASE_URL;
  oauth.all('/.well-known/oauth-authorization-server', ...open);
  oauth.get('/.well-known/oauth-authorization-server', (req, res) => sendMetadata(req, res, base, authorizationServerMetadata));
  for (const resource of ['', '/v1', '/mcp'] as const) {
    const path = `/.well-known/oauth-protected-resource${resource}`;
    oauth.all(path, ...open);
    oauth.get(path, (req, res) => sendMetadata(req, res, base, (issuer) => protectedResourceMetadata(issuer, resource)));
  }
  oauth.all([oauthPaths.registration, oauthPaths.token, oauthPaths.revocation, oauthPaths.deviceAuthorization], ...open);
  oauth.post(oauthPaths.registration, registrationLimit, registerEndpoint(services));
  oauth.post(oauthPaths.deviceAuthorization, deviceLimit, form, deviceAuthorizationEndpoint(config, services));
  oauth.post(oauthPaths.token, tokenLimit, form, tokenEndpoint(config, services));
  oauth.post(oauthPaths.revocation, tokenLimit, form, revokeEndpoint(services));

  // The consent page is the web app's: its session cookie, rotation and CSRF check.
  const authorize = authorizePages(deps);
  const asWebPage = [perIp, ...webPageSteps(deps)];
  oauth.get(oauthPaths.authorization, ...asWebPage, authorize.show);
  oauth.post(oauthPaths.authorization, ...asWebPage, authorize.decide);
  oauth.use(
    oauthPaths.authorization,
    formErrorPage(() => html`<p><a href="/">Back to the dashboard</a>.</p>`),
  );
  return oauth;
}
