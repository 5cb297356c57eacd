import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deleteNamespace } from '@vrs/bus';
import { apiClient, eventually } from '@vrs/testing/api-client';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@vrs/testing/otlp-receiver';
import { startGatewayProcess, startServiceProcess, type RunningProcess } from '@vrs/testing/processes';
import { startFakeLlm } from '@vrs/testing/upstreams/llm/server';

/*
 * Goal 3 of issue 41 (ADR 0102): a gateway and a research service of this test's own, as separate
 * processes exporting over OTLP/HTTP to a receiver of its own, beside the run's other services
 * (billing, provider: untraced, so every span here is the gateway's or research's), and a fake model
 * of its own. An import's request, its tRPC call, the event it queues and the job that handles it are
 * one trace; a report's model attempts are spans under it.
 */
const stackEnv = inject('stackEnv');
const server = 2;
const client = 3;
const producer = 4;
const consumer = 5;
const importRoute = '/v1/projects/{projectId}/imports';
const promiseHookProbe = fileURLToPath(new URL('./support/promise-hook-probe.mjs', import.meta.url));

let receiver: OtlpReceiver;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let runDir: string;
let research: RunningProcess | undefined;
let gateway: RunningProcess | undefined;
const namespace = `e2e_tracing_${process.pid}_${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  llm = await startFakeLlm({ port: 0 });
  runDir = await mkdtemp(join(tmpdir(), 'vrs-tracing-'));
  const env = {
    ...stackEnv,
    NATS_NAMESPACE: namespace,
    DATA_DIR: join(runDir, 'data'),
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    // Batches leave every 100 ms instead of 5 s, so the test need not wait for them.
    OTEL_BSP_SCHEDULE_DELAY: '100',
    NODE_OPTIONS: `--import=${promiseHookProbe}`,
    PROMISE_HOOK_PROBE_FILE: join(runDir, 'promise-hooks'),
  };
  research = await startServiceProcess(
    'research',
    { ...env, LLM_BASE_URL: llm.baseUrl, LLM_PRIMARY_MODEL: 'traced-primary', LLM_MAX_RETRIES: '0' },
    runDir,
  );
  gateway = await startGatewayProcess('gateway', { ...env, RESEARCH_SERVICE_URL: research.url }, runDir);
});

afterAll(async () => {
  await gateway?.stop();
  await research?.stop();
  await deleteNamespace(stackEnv.NATS_URL!, namespace).catch(() => undefined);
  await receiver?.close();
  await llm?.close();
  await rm(runDir, { recursive: true, force: true });
});

/** `span` and its parents up to the trace's root, nearest first; stops where a parent is missing. */
function ancestry(span: ReceivedSpan, trace: ReceivedSpan[]): ReceivedSpan[] {
  const chain = [span];
  for (
    let parent = trace.find((s) => s.spanId === span.parentSpanId);
    parent;
    parent = trace.find((s) => s.spanId === parent!.parentSpanId)
  ) {
    chain.push(parent);
  }
  return chain;
}

describe('traces across gateway, research, NATS and the import job', () => {
  it('makes one trace of an import, parent links intact, and the job’s log lines carry its trace_id', async () => {
    const api = apiClient(gateway!.url, { 'x-demo-user': `tracing-${randomBytes(4).toString('hex')}` });
    const project = await api('POST', '/v1/projects', { json: { name: 'Traced' } });
    expect(project.status, project.text).toBe(200);
    const created = await api('POST', `/v1/projects/${project.body.id}/imports`, {
      json: { source: { type: 'video', id: 'vrsFixture1' } },
    });
    expect(created.status, created.text).toBe(202);
    const requestId = created.headers.get('x-request-id');
    expect(requestId).toMatch(/^req_/);
    await eventually(
      async () => {
        const job = await api('GET', `/v1/jobs/${created.body.id}`);
        return job.body.status === 'completed' ? job.body : undefined;
      },
      { timeoutMs: 60_000, what: 'the import job to complete' },
    );

    // The request's HTTP span, named by its route, and the job's consumer span in the same trace.
    const { root, trace, processing } = await eventually(
      async () => {
        const root = receiver.spans.find(
          (span) => span.service === 'gateway' && span.kind === server && span.attributes['vrs.request_id'] === requestId,
        );
        const trace = receiver.spans.filter((span) => span.traceId === root?.traceId);
        const processing = trace.find((span) => span.kind === consumer && span.name === 'process research.import.requested');
        return root && processing ? { root, trace, processing } : undefined;
      },
      { timeoutMs: 30_000, what: 'the import’s spans to be exported' },
    );
    expect(root).toMatchObject({
      name: `POST ${importRoute}`,
      attributes: { 'http.route': importRoute, 'vrs.operation_id': 'createImport' },
    });
    expect(root.parentSpanId).toBeUndefined();
    // Every other span's parent is in the trace: no link was lost between processes or across the event.
    for (const span of trace)
      if (span !== root)
        expect(
          trace.map((s) => s.spanId),
          `parent of ${span.service} ${span.name}`,
        ).toContain(span.parentSpanId);

    // gateway → (its HTTP client span) → research's server span of the call → … → the event's send → the job.
    const chain = ancestry(processing, trace);
    expect(chain.at(-1)).toBe(root);
    const sending = chain.find((span) => span.kind === producer);
    expect(sending).toMatchObject({ service: 'research', name: 'send research.import.requested' });
    expect(sending!.attributes).toMatchObject({ 'messaging.system': 'nats', 'vrs.request_id': requestId });
    expect(processing.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.operation.type': 'process',
      'vrs.request_id': requestId,
    });
    // The call came alone in its HTTP request, so research's HTTP server span is the procedure's (ADR 0120):
    // one span, named after the procedure, with both the call's and the request's attributes, right under the gateway's call.
    const procedure = chain.find((span) => span.attributes['rpc.method'] === 'imports.create');
    expect(procedure).toMatchObject({
      service: 'research',
      kind: server,
      name: 'imports.create',
      attributes: {
        'rpc.system': 'trpc',
        'vrs.request_id': requestId,
        'vrs.caller': 'gateway',
        'http.request.method': 'POST',
        'url.path': '/trpc/imports.create',
        'http.response.status_code': 200,
      },
    });
    expect(chain[chain.indexOf(procedure!) + 1]).toMatchObject({ service: 'gateway', kind: client, name: 'imports.create' });
    expect(chain.filter((span) => span.service === 'research' && span.kind === server)).toHaveLength(1);
    // The job's own calls (to the provider, to billing) are spans under it.
    const jobCalls = trace.filter((span) => span.kind === client && ancestry(span, trace).includes(processing));
    expect(jobCalls.length).toBeGreaterThan(0);

    // Goal 4: the job's log lines carry the trace beside the request id.
    const jobLine = await eventually(
      async () =>
        research!
          .output()
          .split('\n')
          // Whole lines only: the last may still be arriving.
          .filter((line) => line.startsWith('{') && line.endsWith('}'))
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find((line) => line.requestId === requestId && line.msg === 'import job credits settled'),
      { what: 'the job’s log line' },
    );
    expect(jobLine).toMatchObject({ trace_id: root.traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('keeps each of many concurrent requests in a trace of its own, named by its route', async () => {
    const api = apiClient(gateway!.url, { 'x-demo-user': `tracing-${randomBytes(4).toString('hex')}` });
    const project = await api('POST', '/v1/projects', { json: { name: 'Concurrent' } });
    expect(project.status, project.text).toBe(200);
    // Enough at once that the gateway starts several in one turn (ADR 0047's request turns).
    const responses = await Promise.all(Array.from({ length: 40 }, () => api('GET', `/v1/projects/${project.body.id}`)));
    const requestIds = responses.map((response) => {
      expect(response.status, response.text).toBe(200);
      return response.headers.get('x-request-id');
    });
    const roots = await eventually(
      async () => {
        const found = requestIds.map((requestId) =>
          receiver.spans.find(
            (span) => span.service === 'gateway' && span.kind === server && span.attributes['vrs.request_id'] === requestId,
          ),
        );
        return found.every(Boolean) ? (found as ReceivedSpan[]) : undefined;
      },
      { timeoutMs: 30_000, what: 'every request’s span to be exported' },
    );
    expect(new Set(roots.map((root) => root.traceId)).size).toBe(roots.length);
    for (const root of roots) {
      expect(root).toMatchObject({
        name: 'GET /v1/projects/{projectId}',
        attributes: {
          'vrs.operation_id': 'getProject',
          'http.route': '/v1/projects/{projectId}',
          'http.request.method': 'GET',
          'url.scheme': 'http',
          'url.path': `/v1/projects/${project.body.id}`,
          'http.response.status_code': 200,
        },
      });
      // Its call to research is in its own trace, under it.
      const calls = receiver.spans.filter((span) => span.service === 'gateway' && span.kind === client && span.traceId === root.traceId);
      expect(calls.length, `calls under ${root.attributes['vrs.request_id']}`).toBeGreaterThan(0);
    }
  });

  it('puts each model attempt of a report under the report’s procedure span (ADR 0117)', async () => {
    const api = apiClient(gateway!.url, { 'x-demo-user': `tracing-llm-${randomBytes(4).toString('hex')}` });
    const projectId = (await api('POST', '/v1/projects', { json: { name: 'Traced report' } })).body.id as string;
    const items = [
      { text: 'Grind size controls extraction: finer grinds extract espresso faster.', sourceKey: 'note:grind' },
      { text: 'An espresso brew ratio of one to two gives a balanced shot.', sourceKey: 'note:ratio' },
    ];
    expect((await api('POST', `/v1/projects/${projectId}/evidence`, { json: { items } })).status).toBe(200);
    await eventually(async () =>
      (await api('GET', `/v1/projects/${projectId}/search?q=espresso`)).body.results.length >= 2 ? true : undefined,
    );
    const report = await api('POST', '/v1/reports', { json: { prompt: 'espresso grind and ratio', projectId } });
    expect(report.body, report.text).toMatchObject({ mode: 'llm', model: 'traced-primary' });
    const requestId = report.headers.get('x-request-id');
    const { procedure, attempt } = await eventually(
      async () => {
        const procedure = receiver.spans.find(
          (span) => span.service === 'research' && span.name === 'reports.create' && span.attributes['vrs.request_id'] === requestId,
        );
        const attempt = procedure && receiver.spans.find((span) => span.parentSpanId === procedure.spanId && span.name === 'llm generate');
        return attempt ? { procedure, attempt } : undefined;
      },
      { timeoutMs: 30_000, what: 'the report’s model attempt to be exported' },
    );
    expect(attempt).toMatchObject({ service: 'research', kind: client, traceId: procedure.traceId });
    expect(attempt.attributes['gen_ai.request.model']).toBe('traced-primary');
  });

  it('keeps no query string in a span: a search’s words stay out of the traces', async () => {
    const api = apiClient(gateway!.url, { 'x-demo-user': `tracing-query-${randomBytes(4).toString('hex')}` });
    const projectId = (await api('POST', '/v1/projects', { json: { name: 'Private words' } })).body.id as string;
    const search = await api('GET', `/v1/projects/${projectId}/search?q=confidential+merger`);
    expect(search.status, search.text).toBe(200);
    const requestId = search.headers.get('x-request-id');
    // The gateway's span ends last, so its batch may come after research's: wait for both sides.
    const { root, spans } = await eventually(
      async () => {
        const root = receiver.spans.find(
          (span) => span.service === 'gateway' && span.kind === server && span.attributes['vrs.request_id'] === requestId,
        );
        const spans = receiver.spans.filter((span) => span.traceId === root?.traceId);
        return root && spans.some((span) => span.service === 'research') ? { root, spans } : undefined;
      },
      { timeoutMs: 30_000, what: 'the search’s spans to be exported' },
    );
    expect(root.attributes).toMatchObject({
      'url.path': `/v1/projects/${projectId}/search`,
      'http.response.status_code': 200,
    });
    expect(JSON.stringify(spans)).not.toMatch(/confidential|merger/);
  });

  it('installs no promise hooks: the trace context travels with the request (ADR 0117)', async () => {
    // Both processes have traced requests by now; with AsyncLocalStorage on, every promise would carry async ids.
    for (const traced of [gateway!, research!]) {
      const reading = () => readFile(join(runDir, `promise-hooks.${traced.child.pid}`), 'utf8').catch(() => undefined);
      expect(await eventually(reading, { what: `the promise probe of ${traced.name}` })).toBe('0');
    }
  });
});
