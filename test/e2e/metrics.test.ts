import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, inject, it } from 'vitest';
import * as contracts from '@vrs/contracts';
import { deleteNamespace } from '@vrs/bus';
import { ownCallerNames, sha256Hex } from '@vrs/kit';
import { apiClient, eventually } from '@vrs/testing/api-client';
import { startGatewayProcess } from '@vrs/testing/processes';
import { makeTempDir } from '@vrs/testing/temp-dir';

/*
 * GET /metrics as Prometheus scrapes it (docs/operations.md, ADRs 0100 and 0101): refused without a
 * credential, valid exposition by a real parser (Debian's promtool, or a line-grammar check where
 * it cannot be had), and no label value outside the known sets (no ids, queries or accounts).
 */
const env = inject('stackEnv');
const services = contracts.serviceNames;
const eventTypes = Object.values(contracts as Record<string, unknown>)
  .filter(
    (value): value is { type: string; service: string } =>
      typeof value === 'object' && value !== null && 'type' in value && 'service' in value,
  )
  .map((definition) => definition.type);
const statusClasses = ['1xx', '2xx', '3xx', '4xx', '5xx'];
const trpcCodes = [
  'ok',
  'PARSE_ERROR',
  'BAD_REQUEST',
  'INTERNAL_SERVER_ERROR',
  'NOT_IMPLEMENTED',
  'BAD_GATEWAY',
  'SERVICE_UNAVAILABLE',
  'GATEWAY_TIMEOUT',
  'UNAUTHORIZED',
  'PAYMENT_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_SUPPORTED',
  'TIMEOUT',
  'CONFLICT',
  'PRECONDITION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNPROCESSABLE_CONTENT',
  'TOO_MANY_REQUESTS',
  'CLIENT_CLOSED_REQUEST',
];
const youtubeOperations = [
  'getVideo',
  'getTranscript',
  'getComments',
  'getNewestComments',
  'getPlaylist',
  'search',
  'getChannel',
  'getChannelPlaylists',
  'getStoryboardSource',
  'getStoryboardSheet',
];

/**
 * Every label value each of our metrics may carry: `operationIds` are those of the gateway's OpenAPI
 * document, `clients` the configured internal clients' names.
 */
function knownLabelValues(operationIds: string[], clients: string[]): Record<string, (value: string) => boolean> {
  const oneOf = (values: readonly string[]) => (value: string) => values.includes(value);
  return {
    operation_id: oneOf([...operationIds, 'none']),
    status_class: oneOf(statusClasses),
    service: oneOf(services),
    // A procedure path: router keys only, dot-separated; never an id or anything a caller typed.
    procedure: (value) => /^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)*$/.test(value),
    caller: oneOf(['unknown', 'other', ...ownCallerNames, ...eventTypes.map((type) => `event:${type}`), ...clients]),
    event: oneOf(eventTypes),
    // Consumer names are the modules' constants (kebab-case words); a per-process one is `per-process`.
    consumer: (value) => /^[a-z]+(-[a-z]+)*$/.test(value),
    outcome: oneOf([
      ...trpcCodes,
      'duplicate',
      'failed',
      'error',
      '4xx',
      '5xx',
      'timeout',
      'breaker_open',
      'invalid_output',
      'succeeded',
      'retry',
      'dropped',
    ]),
    upstream: oneOf(['youtube', 'llm']),
    operation: oneOf([...youtubeOperations, 'generate', 'step']),
    status: oneOf(['pending', 'queued', 'running']),
  };
}

interface Sample {
  name: string;
  labels: Record<string, string>;
}

/** The samples of an exposition, with their labels (`le` and `quantile` are the format's own). */
function samplesOf(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels });
  }
  return samples;
}

/** Fails on an invalid exposition: promtool's verdict when it is installed, the sample grammar otherwise. */
function checkExposition(text: string): void {
  const promtool = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (promtool.error) {
    expect(() => samplesOf(text)).not.toThrow();
    return;
  }
  // promtool's lint findings (exit 3) are advice about names; exit 1 is a format it could not parse.
  expect({ status: promtool.status === 1 ? 'unparseable' : 'parsed', stderr: promtool.stderr }).toMatchObject({ status: 'parsed' });
}

/** Our metrics' label values outside the known sets, as `metric{label="value"}`. */
function unknownLabelValues(text: string, operationIds: string[], clients: string[]): string[] {
  const known = knownLabelValues(operationIds, clients);
  const unknown: string[] = [];
  for (const sample of samplesOf(text)) {
    if (!sample.name.startsWith('vrs_')) continue;
    for (const [label, value] of Object.entries(sample.labels)) {
      if (label === 'le') continue;
      const check = known[label];
      if (!check?.(value)) unknown.push(`${sample.name}{${label}="${value}"}`);
    }
  }
  return unknown;
}

async function scrape(baseUrl: string, token = env.INTERNAL_TOKEN): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${baseUrl}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The operation ids the gateway's OpenAPI document names. */
async function operationIdsOf(gatewayUrl: string): Promise<string[]> {
  const document = (await (await fetch(`${gatewayUrl}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  return Object.values(document.paths).flatMap((methods) => Object.values(methods).flatMap((operation) => operation.operationId ?? []));
}

async function configuredClients(): Promise<string[]> {
  const file = env.INTERNAL_CLIENTS_FILE;
  if (!file) return [];
  return (JSON.parse(await readFile(file, 'utf8')) as { name: string }[]).map((client) => client.name);
}

/** Some traffic through every kind of choke point: public operations, internal calls, events. */
async function makeTraffic(gatewayUrl: string, user: string): Promise<void> {
  const demo = apiClient(gatewayUrl, { 'x-demo-user': user });
  expect((await demo('GET', '/v1/health')).status).toBe(200);
  expect((await demo('GET', '/v1/no-such-route')).status).toBe(404);
  const project = await demo('POST', '/v1/projects', { json: { name: 'metrics' } });
  expect(project.status).toBe(200);
  const added = await demo('POST', `/v1/projects/${project.body.id}/evidence`, {
    json: { items: [{ text: 'Operators watch request latency per operation.', sourceKey: 'note:metrics' }] },
  });
  expect(added.status).toBe(200);
  await eventually(
    async () => {
      const found = await demo('GET', `/v1/projects/${project.body.id}/search?q=latency`);
      return found.status === 200 && found.body.results.length > 0 ? found : undefined;
    },
    { what: 'the evidence to be indexed' },
  );
}

describe('GET /metrics (separate processes)', () => {
  const gatewayUrl = inject('gatewayUrl');
  const serviceUrls = Object.fromEntries(services.map((service) => [service, env[`${service.toUpperCase()}_SERVICE_URL`]!]));

  it('is refused without the internal token or a client allowed `metrics`, on the gateway and on a service', async () => {
    for (const url of [gatewayUrl, serviceUrls.research!]) {
      expect((await scrape(url, '')).status).toBe(401);
      expect((await scrape(url, 'not-a-secret')).status).toBe(401);
    }
  });

  it('serves valid exposition with RED per operation, procedure and event, and only known label values, on every process', async () => {
    await makeTraffic(gatewayUrl, `metrics-${randomBytes(3).toString('hex')}`);
    const clients = await configuredClients();
    const operationIds = await operationIdsOf(gatewayUrl);
    expect(operationIds).toContain('createProject');

    const gateway = await scrape(gatewayUrl);
    expect(gateway.status).toBe(200);
    expect(gateway.type).toMatch(/^text\/plain; version=0\.0\.4/);
    checkExposition(gateway.text);
    expect(unknownLabelValues(gateway.text, operationIds, clients)).toEqual([]);
    expect(gateway.text).toMatch(/^vrs_http_request_duration_seconds_count\{operation_id="createProject",status_class="2xx"\} [1-9]/m);
    expect(gateway.text).toMatch(/^vrs_http_request_duration_seconds_count\{operation_id="none",status_class="4xx"\} [1-9]/m);
    // prom-client's process metrics.
    expect(gateway.text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(gateway.text).toMatch(/^process_resident_memory_bytes /m);

    for (const [service, url] of Object.entries(serviceUrls)) {
      const scraped = await scrape(url);
      expect(scraped.status, service).toBe(200);
      checkExposition(scraped.text);
      expect(unknownLabelValues(scraped.text, operationIds, clients), service).toEqual([]);
    }

    const research = await eventually(
      async () => {
        const text = (await scrape(serviceUrls.research!)).text;
        return /^vrs_events_acked_total\{event="research\.evidence\.added",consumer="research-indexer"\} [1-9]/m.test(text)
          ? text
          : undefined;
      },
      { what: 'the indexer to count its acked event' },
    );
    expect(research).toMatch(
      /^vrs_procedure_duration_seconds_count\{service="research",procedure="projects\.create",caller="gateway",outcome="ok"\} [1-9]/m,
    );
    expect(research).toMatch(/^vrs_outbox_pending\{service="research"\} \d/m);
    expect(research).toMatch(/^vrs_outbox_oldest_pending_age_seconds\{service="research"\} /m);
    expect(research).toMatch(/^vrs_jobs\{status="running"\} \d/m);
    expect((await scrape(serviceUrls.billing!)).text).toMatch(/^vrs_credit_reservations_outstanding \d/m);
    expect((await scrape(serviceUrls.provider!)).text).toMatch(/^vrs_upstream_breaker_state\{upstream="youtube"\} 0/m);
  });

  it('a bad label value is caught by the check (it can fail)', () => {
    const text = 'vrs_http_request_duration_seconds_count{operation_id="acc_123",status_class="2xx"} 1\n';
    expect(unknownLabelValues(text, ['createProject'], [])).toEqual(['vrs_http_request_duration_seconds_count{operation_id="acc_123"}']);
  });
});

describe('GET /metrics (npm start: one process, one registry)', () => {
  it('serves the gateway and every hosted service from one registry, procedures named by service and caller', async () => {
    const namespace = `e2e_metrics_${randomBytes(3).toString('hex')}`;
    const token = randomBytes(16).toString('hex');
    const reader = `metrics-reader-${randomBytes(3).toString('hex')}`;
    const readerSecret = randomBytes(16).toString('hex');
    const gateway = await startGatewayProcess(
      'metrics-npm-start',
      {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        SERVICES_MODE: 'inprocess',
        DATA_DIR: makeTempDir('vrs-metrics-'),
        NATS_URL: env.NATS_URL,
        NATS_NAMESPACE: namespace,
        INTERNAL_TOKEN: token,
        // A named client allowed only `metrics`: what a Prometheus server is given (ADR 0101).
        INTERNAL_CLIENTS: JSON.stringify([{ name: reader, sha256: sha256Hex(readerSecret), allow: ['metrics'], readOnly: true }]),
        DEMO_MODE: 'true',
        YOUTUBE_UPSTREAM_URL: env.YOUTUBE_UPSTREAM_URL,
      },
      inject('logDir'),
    );
    try {
      await makeTraffic(gateway.url, 'metrics-npm-start');
      const scraped = await scrape(gateway.url, readerSecret);
      expect(scraped.status).toBe(200);
      checkExposition(scraped.text);
      expect(unknownLabelValues(scraped.text, await operationIdsOf(gateway.url), [reader])).toEqual([]);
      expect(scraped.text).toMatch(/^vrs_http_request_duration_seconds_count\{operation_id="createProject",status_class="2xx"\} 1$/m);
      expect(scraped.text).toMatch(
        /^vrs_procedure_duration_seconds_count\{service="research",procedure="projects\.create",caller="gateway",outcome="ok"\} 1$/m,
      );
      for (const service of ['billing', 'research', 'monitoring'])
        expect(scraped.text).toMatch(new RegExp(`^vrs_outbox_pending\\{service="${service}"\\} `, 'm'));
      // The reader's secret opens /metrics only, not a procedure.
      expect((await scrape(gateway.url, `${readerSecret}x`)).status).toBe(401);
    } finally {
      await gateway.stop();
      await deleteNamespace(env.NATS_URL!, namespace);
    }
  });
});
