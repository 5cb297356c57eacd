import { appendFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { deleteNamespace } from '@vrs/bus';
import { ensureNatsServer } from '@vrs/testing/nats';
import { startGatewayProcess, startServiceProcess, type RunningProcess } from '@vrs/testing/processes';
import { defaultReplayDirs, parseReplayDirs } from '@vrs/testing/upstreams/youtube/replay-dirs';
import { startFakeYouTube } from '@vrs/testing/upstreams/youtube/server';
import { startFakeLlm } from '@vrs/testing/upstreams/llm/server';
import { startSmtpInbox } from '@vrs/testing/smtp-inbox';

declare module 'vitest' {
  export interface ProvidedContext {
    gatewayUrl: string;
    /** Environment of this run's stack, for tests that start extra processes beside it. */
    stackEnv: Record<string, string> & { NATS_URL: string; INTERNAL_TOKEN: string };
    logDir: string;
    researchLogFile: string;
    /** The fake YouTube upstream the provider talks to; tests drive it through its control API. */
    youtubeUpstreamUrl: string;
    /** The trends service, for the test-only clock control (internal tRPC, with stackEnv.INTERNAL_TOKEN). */
    trendsServiceUrl: string;
    /** The monitoring service, for its test-only clock and scheduler procedures (internal tRPC, with stackEnv.INTERNAL_TOKEN). */
    monitoringServiceUrl: string;
    /** The fake LLM the trends service alone talks to (its behaviours are per server, so no other suite moves them). */
    trendsLlmUrl: string;
    /** The fake LLM the research service alone talks to (answers, reports, comparisons). */
    researchLlmUrl: string;
    /** The agents service, for its operator procedure (internal tRPC, with stackEnv.INTERNAL_TOKEN). */
    agentsServiceUrl: string;
    /** The HTTP side of the real SMTP server the gateway mails through (`mailTo`/`waitForMail` in @vrs/testing/smtp-inbox). */
    mailInboxUrl: string;
  }
}

/**
 * One full stack per test run, as separate processes talking over real HTTP and a real
 * nats-server: billing, research and provider services, and the gateway in front; the provider
 * talks to a fake YouTube upstream replaying the shared recordings and the project's fixtures.
 * Everything this run makes (data dir, NATS namespace) is its own and is removed at teardown.
 */
export default async function setup(project: TestProject) {
  const nats = await ensureNatsServer();
  const runDir = await mkdtemp(join(tmpdir(), 'vrs-e2e-'));
  const youtube = await startFakeYouTube({
    // The shared recordings, the authored caption exchanges, and the project's own fixtures.
    replayDirs: parseReplayDirs(defaultReplayDirs),
    log: (line) => appendFileSync(join(runDir, 'fake-youtube.log'), `${line}\n`),
  });
  const trendsLlm = await startFakeLlm({ port: 0 });
  const researchLlm = await startFakeLlm({ port: 0 });
  const mail = await startSmtpInbox();
  const namespace = `e2e_${process.pid}_${randomBytes(3).toString('hex')}`;
  const stackEnv: Record<string, string> & { NATS_URL: string; INTERNAL_TOKEN: string } = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    SERVICES_MODE: 'http',
    NATS_URL: nats.url,
    NATS_NAMESPACE: namespace,
    DATA_DIR: join(runDir, 'data'),
    INTERNAL_TOKEN: randomBytes(24).toString('hex'),
    // Named internal clients (docs/internal-clients.md): none at start; internal-clients.test.ts adds its own.
    INTERNAL_CLIENTS_FILE: join(runDir, 'internal-clients.json'),
    DEMO_MODE: 'true',
    BILLING_STARTING_CREDITS: '1000',
    PLAN_FREE_REQUESTS_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_IP: '1000000',
    DEVICE_CODE_RATE_LIMIT_PER_IP: '1000000',
    AUTH_CACHE_TTL_MS: '0',
    BUS_ACK_WAIT_MS: '5000',
    YOUTUBE_UPSTREAM_URL: youtube.url,
    YOUTUBE_TIMEOUT_MS: '2000',
    YOUTUBE_RETRIES: '1',
    YOUTUBE_RETRY_BASE_DELAY_MS: '5',
    // Tests inject upstream failures side by side; the breaker is tested on a stack of its own.
    YOUTUBE_BREAKER_THRESHOLD: '1000',
    // The gateway's mail (verification and reset links) goes over real SMTP to the test inbox.
    SMTP_URL: mail.smtpUrl,
    // Cheaper password hashes than production's (2^17) keep sign-in tests quick on a small machine.
    PASSWORD_SCRYPT_LOG_N: '14',
    SIGNIN_ATTEMPTS_PER_EMAIL: '5',
    SIGNIN_ATTEMPTS_PER_IP: '100000',
  };
  writeFileSync(stackEnv.INTERNAL_CLIENTS_FILE!, '[]\n');
  const processes: RunningProcess[] = [];
  const teardown = async () => {
    await Promise.all(processes.reverse().map((running) => running.stop()));
    await deleteNamespace(nats.url, namespace).catch(() => undefined);
    await nats.stop();
    await youtube.close();
    await trendsLlm.close();
    await researchLlm.close();
    await mail.close();
    await rm(runDir, { recursive: true, force: true });
  };
  try {
    const [billing, provider] = await Promise.all([
      startServiceProcess('billing', stackEnv, runDir),
      startServiceProcess('provider', stackEnv, runDir),
    ]);
    processes.push(billing, provider);
    stackEnv.BILLING_SERVICE_URL = billing.url;
    stackEnv.PROVIDER_SERVICE_URL = provider.url;
    // Research imports read through the provider, so it starts once the provider's URL is known.
    const research = await startServiceProcess('research', { ...stackEnv, ...researchLlmEnv(researchLlm.baseUrl) }, runDir);
    processes.push(research);
    stackEnv.RESEARCH_SERVICE_URL = research.url;
    const trends = await startServiceProcess('trends', { ...stackEnv, ...trendsEnv(trendsLlm.baseUrl) }, runDir);
    processes.push(trends);
    stackEnv.TRENDS_SERVICE_URL = trends.url;
    // Monitoring checks through provider, trends and billing. No scheduler loop: tests move its clock and run passes.
    const monitoring = await startServiceProcess(
      'monitoring',
      { ...stackEnv, MONITORING_CLOCK_CONTROL: 'true', MONITORING_TICK_MS: '0', WEBHOOKS_ALLOW_PRIVATE: 'true' },
      runDir,
    );
    processes.push(monitoring);
    stackEnv.MONITORING_SERVICE_URL = monitoring.url;
    // Agents on, for allowlisted accounts only (tests allow theirs through the operator procedure).
    const agents = await startServiceProcess('agents', { ...stackEnv, AGENTS_ENABLED: 'true' }, runDir);
    processes.push(agents);
    stackEnv.AGENTS_SERVICE_URL = agents.url;
    const gateway = await startGatewayProcess('gateway', stackEnv, runDir);
    processes.push(gateway);
    project.provide('gatewayUrl', gateway.url);
    project.provide('stackEnv', stackEnv);
    project.provide('logDir', runDir);
    project.provide('researchLogFile', research.logFile);
    project.provide('youtubeUpstreamUrl', youtube.url);
    project.provide('trendsServiceUrl', trends.url);
    project.provide('monitoringServiceUrl', monitoring.url);
    project.provide('trendsLlmUrl', trendsLlm.url);
    project.provide('researchLlmUrl', researchLlm.url);
    project.provide('agentsServiceUrl', agents.url);
    project.provide('mailInboxUrl', mail.inboxUrl);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/** The trends service's own settings: its fake LLM (no retries, short turns) and the test clock. */
function trendsEnv(llmBaseUrl: string): Record<string, string> {
  return {
    LLM_BASE_URL: llmBaseUrl,
    LLM_PRIMARY_MODEL: 'trends-primary',
    LLM_FALLBACK_MODEL: 'trends-fallback',
    LLM_TIMEOUT_MS: '1500',
    LLM_MAX_RETRIES: '0',
    TRENDS_CLOCK_CONTROL: 'true',
  };
}

/** The research service's fake LLM: no retries and short turns, so fallback tests stay quick. */
function researchLlmEnv(llmBaseUrl: string): Record<string, string> {
  return {
    LLM_BASE_URL: llmBaseUrl,
    LLM_PRIMARY_MODEL: 'research-primary',
    LLM_FALLBACK_MODEL: 'research-fallback',
    LLM_TIMEOUT_MS: '1500',
    LLM_MAX_RETRIES: '0',
  };
}
