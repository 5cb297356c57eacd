import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { startOtlpReceiver, type ReceivedSpan } from '@vrs/testing/otlp-receiver';
import type { TraceContext } from './tracing';

/*
 * ADR 0120: a service's spans, traced with the official SDK and exported over OTLP/HTTP to a receiver
 * of this test's own. A call alone in its HTTP request (what our services' clients send) is one server
 * span; a stock client's batch is the request's span with a span per call under it. This file's
 * process traces; no other does. The procedure builder asks whether tracing is on when it loads, so
 * whatever imports it (`@vrs/kit`, through `eventually`'s module too) is imported after the variables
 * are set; a type-only import loads nothing.
 */
const receiver = await startOtlpReceiver();
process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
const { startTracing, inSpan } = await import('./tracing');
const { eventually } = await import('@vrs/testing/api-client');
const flush = await startTracing('service-spans-test');
const { AppError } = await import('./app-error');
const { procedure, router } = await import('./trpc');
const { startServiceServer } = await import('./service-server');
const { createServiceClient, forRequest } = await import('./service-client');

const token = 'test-internal-token-0123456789';
const exampleRouter = router({
  notes: router({
    get: procedure.input(z.object({ id: z.string() })).query(({ input }) => {
      if (input.id === 'broken') throw new AppError('SERVICE_UNAVAILABLE', 'the notes store is away');
      return { id: input.id };
    }),
  }),
});
const server = await startServiceServer({
  service: 'example',
  router: exampleRouter,
  port: 0,
  host: '127.0.0.1',
  internalToken: token,
  logger: pino({ level: 'silent' }),
});
const ownClient = createServiceClient<typeof exampleRouter>({
  mode: 'http',
  url: server.url,
  internalToken: token,
  caller: 'gateway',
  timeoutMs: 5_000,
});

afterAll(async () => {
  await server.close();
  await flush?.();
  await receiver.close();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
});

/** The spans of the trace under a root span of this test's, once `count` of them have arrived. */
async function traceOf(name: string, work: (trace?: TraceContext) => Promise<unknown>, count: number): Promise<ReceivedSpan[]> {
  let traceId = '';
  await inSpan(name, { kind: 'internal' }, async (span, trace) => {
    traceId = span!.spanContext().traceId;
    await work(trace);
  });
  return eventually(
    async () => {
      const spans = receiver.spans.filter((span) => span.traceId === traceId);
      return spans.length >= count ? spans : undefined;
    },
    { what: `${count} spans of ${name}` },
  );
}

/** OTLP's span kinds. */
const serverKind = 2;
const clientKind = 3;

describe('a traced service’s spans', () => {
  it('makes a call alone in its request one server span, named after the procedure, with the call’s and the request’s attributes', async () => {
    const spans = await traceOf(
      'own call',
      (trace) => forRequest(ownClient, { requestId: 'req_own', trace }).notes.get.query({ id: 'n1' }),
      3,
    );
    const call = spans.find((span) => span.kind === clientKind);
    const served = spans.filter((span) => span.kind === serverKind);
    expect(served).toHaveLength(1);
    expect(served[0]).toMatchObject({
      name: 'notes.get',
      parentSpanId: call!.spanId,
      status: { code: 0 },
      attributes: {
        'rpc.system': 'trpc',
        'rpc.method': 'notes.get',
        'vrs.caller': 'gateway',
        'vrs.request_id': 'req_own',
        'http.request.method': 'GET',
        'url.path': '/trpc/notes.get',
        'http.response.status_code': 200,
      },
    });
  });

  it('keeps the failure’s message on a call alone in its request that answers 5xx', async () => {
    const spans = await traceOf(
      'failing call',
      (trace) =>
        forRequest(ownClient, { requestId: 'req_failing', trace })
          .notes.get.query({ id: 'broken' })
          .catch(() => undefined),
      3,
    );
    expect(spans.find((span) => span.kind === serverKind)).toMatchObject({
      name: 'notes.get',
      status: { code: 2, message: 'the notes store is away' },
      attributes: { 'http.response.status_code': 503 },
    });
  });

  it('gives a stock client’s batch the request’s span with a span per call under it', async () => {
    const stock = createTRPCClient<typeof exampleRouter>({
      links: [httpBatchLink({ url: `${server.url}/trpc`, headers: { 'x-internal-token': token, 'x-request-id': 'req_batch' } })],
    });
    await Promise.all([stock.notes.get.query({ id: 'a' }), stock.notes.get.query({ id: 'b' })]);
    const batch = await eventually(async () =>
      receiver.spans.find((span) => span.kind === serverKind && span.attributes['url.path'] === '/trpc/notes.get,notes.get'),
    );
    expect(batch).toMatchObject({ name: 'GET', attributes: { 'vrs.request_id': 'req_batch', 'http.response.status_code': 200 } });
    const calls = await eventually(async () => {
      const under = receiver.spans.filter((span) => span.parentSpanId === batch.spanId);
      return under.length === 2 ? under : undefined;
    });
    for (const call of calls)
      expect(call).toMatchObject({ name: 'notes.get', kind: serverKind, attributes: { 'rpc.method': 'notes.get' } });
  });
});
