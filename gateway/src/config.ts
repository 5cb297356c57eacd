import { z } from 'zod';
import { baseEnvShape, booleanFromEnv, ConfigError, loadConfig } from '@vrs/kit';
import { billingEnvSchema, identityEnvShape, planEnvShape } from '@vrs/billing/config';
import { providerRetentionEnvShape, youtubeEnvShape } from '@vrs/provider/config';
import { llmEnvShape } from '@vrs/ai/config';
import { trendsEnvShape } from '@vrs/trends/config';
import { researchImportEnvShape, researchRetentionEnvShape, searchEnvShape } from '@vrs/research/config';
import { monitoringEnvShape } from '@vrs/monitoring/config';
import { agentsEnvShape } from '@vrs/agents/config';

const week = 7 * 86_400_000;
const quarterHour = 15 * 60_000;
const thirtyDaysInSeconds = 30 * 86_400;

export const gatewayEnvSchema = z.object({
  ...baseEnvShape,
  // The services' settings, read too for when the gateway hosts them in-process.
  ...billingEnvSchema.pick({ BILLING_STARTING_CREDITS: true, BILLING_RESERVATION_TTL_MS: true, BILLING_SWEEP_INTERVAL_MS: true }).shape,
  // The per-account rate limit of each plan: enforced here, shown by billing.
  ...planEnvShape,
  ...identityEnvShape,
  ...youtubeEnvShape,
  ...providerRetentionEnvShape,
  ...llmEnvShape,
  ...trendsEnvShape,
  ...searchEnvShape,
  ...researchRetentionEnvShape,
  ...researchImportEnvShape,
  ...monitoringEnvShape,
  ...agentsEnvShape,
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Accept `X-Demo-User`. `npm start` turns it on; it is refused whenever NODE_ENV=production. */
  DEMO_MODE: booleanFromEnv.default(false),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(100).default(60_000),
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(1200),
  /** Where rate-limit counters live: `nats` (NATS KV, shared by every gateway replica) or `memory` (one process). */
  RATE_LIMIT_STORE: z.enum(['nats', 'memory']).default('nats'),
  /**
   * How often this process's rate-limit hits are added to the shared NATS KV counts (ADR 0039): replicas may
   * exceed a limit by what the others admit in one interval. 0: each hit is counted in NATS KV first, exactly.
   */
  RATE_LIMIT_SYNC_INTERVAL_MS: z.coerce.number().int().min(0).max(10_000).default(100),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** A connection that has not sent a request's headers within this is answered 408 and closed (ADR 0088). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** A connection that has not sent a whole request, headers and body, within this is answered 408 and closed. */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** How long a verified API key is trusted before it is checked again (revocation takes effect within this). */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5_000),
  /** How often the API keys' last uses noted in memory are sent to billing (and once at shutdown). */
  API_KEY_USE_FLUSH_INTERVAL_MS: z.coerce.number().int().min(10).default(60_000),
  /** Express `trust proxy`: hops of reverse proxies whose X-Forwarded-For is believed (0 = none). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).default(0),
  /** The public origin (`https://api.example.com`): mailed links, the expected Origin, HSTS when https. Required in production. */
  PUBLIC_BASE_URL: z.url().optional(),
  /** How long a web sign-in lasts (absolute; rotation does not extend it). */
  WEB_SESSION_TTL_MS: z.coerce.number().int().min(60_000).default(week),
  /** A web session's cookie token older than this is replaced on the next request. */
  WEB_SESSION_ROTATE_AFTER_MS: z.coerce.number().int().min(0).default(quarterHour),
  /** How long a replaced session token still works, for requests the browser sent in parallel. */
  SESSION_ROTATION_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
  /** RFC 8628 device authorization (ADR 0036): how long a device code and its user code stay valid. */
  DEVICE_CODE_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** The polling interval a new device code starts with (slow_down adds 5 s each time). */
  DEVICE_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  /** How long a CLI session from the device flow lasts (absolute, not extended by use). */
  CLI_SESSION_TTL_MS: z.coerce.number().int().min(1000).default(week),
  /** Device codes one client IP may request per DEVICE_RATE_LIMIT_WINDOW_MS. */
  DEVICE_CODE_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(20),
  /** Wrong user codes an account may type on /device per DEVICE_RATE_LIMIT_WINDOW_MS. */
  DEVICE_USER_CODE_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  /** Wrong user codes one client IP may type, every account on it together: well above one account's (ADR 0082). */
  DEVICE_USER_CODE_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).default(100),
  DEVICE_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(quarterHour),
  /** OAuth 2.1 authorization server (ADR 0095): access tokens' life (≤ 1 h). */
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(3600),
  /** How long an OAuth grant, and so its refresh tokens, lasts from the approval (absolute, ≤ 30 days). */
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(thirtyDaysInSeconds).default(thirtyDaysInSeconds),
  /** Authorization codes' life (≤ 60 s; single-use). */
  OAUTH_CODE_TTL_SECONDS: z.coerce.number().int().min(1).max(60).default(60),
  /** Requests one client IP may send to /oauth/token, and to /oauth/register, per OAUTH_RATE_LIMIT_WINDOW_MS. */
  OAUTH_TOKEN_REQUESTS_PER_IP: z.coerce.number().int().min(1).default(300),
  OAUTH_REGISTRATIONS_PER_IP: z.coerce.number().int().min(1).default(20),
  OAUTH_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(quarterHour),
  /** Outgoing mail (`smtp://user:pass@host:port`, `smtps://…`); unset: links are logged and kept at /_dev/mail. */
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('Video Research Service <no-reply@localhost>'),
  /** Sign-in (and password-reset request) attempts allowed per email address, and per client IP, per window. */
  SIGNIN_ATTEMPTS_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  SIGNIN_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).default(100),
  SIGNIN_WINDOW_MS: z.coerce.number().int().min(1000).default(quarterHour),
  /** How many messages the dev outbox (no SMTP_URL) keeps for /_dev/mail. */
  DEV_MAIL_KEEP: z.coerce.number().int().min(1).max(1000).default(50),
  /** In inprocess mode, also serve each hosted service's tRPC router at its *_SERVICE_URL (loopback, token-protected). */
  SERVE_HOSTED_SERVICES: booleanFromEnv.default(true),
});

export type GatewayConfig = z.infer<typeof gatewayEnvSchema>;

/** One setting refused by a check across settings: a ConfigError, so main prints it and exits 78 as for any other. */
const invalid = (setting: string, problem: string) => new ConfigError([`${setting}: ${problem}`]);

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  // Ignoring it would silently change an operator's limit to the plan's (ADR 0032).
  if (env.RATE_LIMIT_PER_ACCOUNT) {
    throw invalid(
      'RATE_LIMIT_PER_ACCOUNT',
      'removed; per-account limits follow the plan (PLAN_FREE_REQUESTS_PER_MINUTE, PLAN_PRO_…, PLAN_TEAM_…)',
    );
  }
  const config = loadConfig(gatewayEnvSchema, env);
  if (config.SEARCH_ENGINE === 'mongo' && !config.MONGODB_URL) throw invalid('SEARCH_ENGINE', 'mongo needs MONGODB_URL');
  if (config.HTTP_HEADERS_TIMEOUT_MS > config.HTTP_REQUEST_TIMEOUT_MS) {
    throw invalid('HTTP_HEADERS_TIMEOUT_MS', 'must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)');
  }
  if (config.DEMO_MODE && config.NODE_ENV === 'production') throw invalid('DEMO_MODE', 'must not be on when NODE_ENV=production');
  // Mailed links and the expected Origin come from it; without it they would follow the Host header (ADR 0080).
  if (!config.PUBLIC_BASE_URL && config.NODE_ENV === 'production') {
    throw invalid('PUBLIC_BASE_URL', 'required when NODE_ENV=production (links in mail are built from it)');
  }
  return config;
}
