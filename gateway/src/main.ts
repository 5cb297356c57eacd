import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { billingAccountDeleted } from '@vrs/contracts';
import {
  busHealthCheck,
  createBatchedWindowCounter,
  createKvWindowCounter,
  createMemoryWindowCounter,
  type EventBus,
  type WindowCounter,
} from '@vrs/bus';
import {
  checkDependencies,
  componentLogger,
  createLogger,
  createShutdown,
  handleInTurns,
  withRequestSpans,
  type HealthReport,
  listen,
  startTracing,
} from '@vrs/kit';
import { exitOnConfigError, exitOnOperatorError, openBus, removeRuntimeRecord, writeRuntimeRecord } from '@vrs/runtime';
import { loadGatewayConfig, type GatewayConfig } from './config';
import { createGatewayApp } from './app';
import { answerClientErrorsInEnvelope } from './edge/client-errors';
import { expressServerOptions, slowClientTimeouts } from './edge/express-server-options';
import { connectServices } from './services-host';
import { bearerApiKeyAuthenticator, createApiKeyVerifier, headerApiKeyAuthenticator } from './auth/api-key-authenticators';
import { demoUserAuthenticator } from './auth/demo-user-authenticator';
import { createKeyUseRecorder } from './auth/key-use-recorder';
import { createAuthCaches } from './auth/auth-caches';
import {
  cliSessionAuthenticator,
  createSessionVerifier,
  oauthAccessTokenAuthenticator,
  sessionCookieAuthenticator,
} from './auth/session-authenticators';
import { createMailer } from './mail/mailer';
import { createCreditCalls } from './metering/credit-calls';

const logger = createLogger('gateway');

/** Services report their own dependencies; readiness needs a failure to be a rejection. */
function throwUnlessOk(report: HealthReport): void {
  if (!report.ok) {
    const down = Object.entries(report.dependencies)
      .filter(([, status]) => !status.ok)
      .map(([name, status]) => `${name}: ${status.detail ?? 'down'}`);
    throw new Error(down.join('; '));
  }
}

async function openRateLimitCounter(config: GatewayConfig, bus: EventBus | null): Promise<WindowCounter> {
  if (config.RATE_LIMIT_STORE === 'memory' || bus?.kind === 'memory') {
    logger.warn('rate limits: counters in this process only (not shared between gateway replicas)');
    return createMemoryWindowCounter();
  }
  const shared = await createKvWindowCounter({
    natsUrl: config.NATS_URL,
    namespace: config.NATS_NAMESPACE,
    replicas: config.NATS_STREAM_REPLICAS,
  });
  // Counted here and reconciled in batches (RATE_LIMIT_SYNC_INTERVAL_MS, ADR 0039).
  return config.RATE_LIMIT_SYNC_INTERVAL_MS > 0
    ? createBatchedWindowCounter(shared, { syncIntervalMs: config.RATE_LIMIT_SYNC_INTERVAL_MS })
    : shared;
}

async function main() {
  let config: GatewayConfig;
  try {
    config = loadGatewayConfig();
  } catch (error) {
    exitOnConfigError(error);
  }
  const shutdown = createShutdown(logger);
  shutdown.installSignalHandlers();
  // First started, so last stopped: spans of the shutdown itself are flushed too.
  const stopTracing = await startTracing('gateway');
  if (stopTracing) shutdown.onShutdown('tracing', stopTracing);

  // The gateway publishes nothing; it hosts services in-process on the bus, and hears of deleted
  // accounts on it. Split across processes (http mode) the services need NATS, so the gateway does too.
  const bus = await openBus(config, { name: 'system', allowMemoryFallback: config.SERVICES_MODE === 'inprocess', logger });
  shutdown.onShutdown('bus', () => bus.close());
  const connection = await connectServices(config, { bus, logger });
  shutdown.onShutdown('services', () => connection.close());
  const rateLimitCounter = await openRateLimitCounter(config, bus);
  shutdown.onShutdown('rate-limit store', () => rateLimitCounter.close());

  const { services } = connection;
  const verify = createApiKeyVerifier(services, { cacheTtlMs: config.AUTH_CACHE_TTL_MS });
  const sessions = createSessionVerifier(services, {
    cacheTtlMs: config.AUTH_CACHE_TTL_MS,
    rotateAfterMs: config.WEB_SESSION_ROTATE_AFTER_MS,
  });
  const cookie = { secure: config.NODE_ENV === 'production' };
  if (!config.SMTP_URL && config.NODE_ENV === 'production') {
    logger.warn('SMTP_URL is not set: verification and reset links are only logged, nobody receives them');
  }
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    keep: config.DEV_MAIL_KEEP,
    // Its own component, not a child of the gateway's: a child would repeat the `component` key.
    log: createLogger('mail'),
  });
  const keyUses = createKeyUseRecorder({
    send: (uses) => services.billing.apiKeys.touch.mutate({ uses }),
    intervalMs: config.API_KEY_USE_FLUSH_INTERVAL_MS,
    log: logger,
  });
  keyUses.start();
  // Registered after the services and before the server: hooks run in reverse, so the last uses are
  // sent once the server has stopped taking requests and before the service clients close.
  shutdown.onShutdown('api key uses', () => keyUses.close());
  const apiKeys = { verify, uses: keyUses };
  const demoUsers = demoUserAuthenticator(services, { enabled: config.DEMO_MODE });
  const authCaches = createAuthCaches([verify, demoUsers, sessions]);
  // Every replica drops a deleted account's cached credentials at once (ADR 0033), rather than
  // serving them until AUTH_CACHE_TTL_MS (keys) or for good (demo values): a consumer per process.
  const accountDeletions = await bus.subscribe(
    `gateway-auth-caches-${randomUUID()}`,
    billingAccountDeleted,
    async ({ data }) => authCaches.forgetAccount(data.accountId),
    { perProcess: true },
  );
  shutdown.onShutdown('account deletions', () => accountDeletions.stop());
  const creditCalls = createCreditCalls(services.billing, componentLogger(logger, 'credit-calls'));
  // Like the key uses: once the server stopped taking requests, before the service clients close.
  shutdown.onShutdown('credit calls', () => creditCalls.close());
  const { app } = createGatewayApp({
    config,
    services,
    creditCalls,
    rateLimitCounter,
    identity: { sessions, cookie, mailer },
    authenticators: [
      bearerApiKeyAuthenticator(apiKeys),
      headerApiKeyAuthenticator(apiKeys),
      cliSessionAuthenticator(sessions),
      oauthAccessTokenAuthenticator(sessions),
      // After every header scheme: a request that sends a key or a bearer token on purpose is
      // judged by it, not by an ambient cookie (and so is not subject to CSRF).
      sessionCookieAuthenticator(sessions, cookie),
      demoUsers,
    ],
    authCaches,
    readiness: () =>
      checkDependencies({
        bus: busHealthCheck(bus),
        rateLimitStore: () => rateLimitCounter.increment('readiness-probe', 1_000),
        billing: () => services.billing.health.query().then(throwUnlessOk),
        research: () => services.research.health.query().then(throwUnlessOk),
        provider: () => services.provider.health.query().then(throwUnlessOk),
        trends: () => services.trends.health.query().then(throwUnlessOk),
        monitoring: () => services.monitoring.health.query().then(throwUnlessOk),
        agents: () => services.agents.health.query().then(throwUnlessOk),
      }),
  });

  const server = createServer(
    {
      ...expressServerOptions(app),
      ...slowClientTimeouts({ headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS, requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS }),
    },
    withRequestSpans(handleInTurns(app, config.REQUEST_TURN_BUDGET_MS)),
  );
  answerClientErrorsInEnvelope(server, logger);
  await listen(server, { port: config.PORT, host: config.HOST, setting: 'PORT' });
  server.keepAliveTimeout = 65_000;
  shutdown.onShutdown(
    'http',
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  );
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
  if (config.SERVICES_MODE === 'inprocess') {
    await writeRuntimeRecord(config.DATA_DIR, {
      pid: process.pid,
      startedAt: new Date().toISOString(),
      gatewayUrl: url,
      natsNamespace: config.NATS_NAMESPACE,
      services: connection.internalUrls,
    });
    shutdown.onShutdown('runtime record', () => removeRuntimeRecord(config.DATA_DIR));
  }
  logger.info(
    {
      url,
      mode: config.SERVICES_MODE,
      demoMode: config.DEMO_MODE,
      natsNamespace: bus.kind === 'memory' ? undefined : config.NATS_NAMESPACE,
    },
    'gateway listening',
  );
  console.log(`Video Research Service listening on ${url}  (API reference: ${url}/v1/docs)`);
}

main().catch((error) => {
  exitOnOperatorError(error);
  logger.fatal({ err: error }, 'gateway failed to start');
  process.exit(1);
});
