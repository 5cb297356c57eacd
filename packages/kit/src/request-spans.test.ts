import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@vrs/testing/api-client';
import { startOtlpReceiver, type OtlpReceiver } from '@vrs/testing/otlp-receiver';
import { startTracing, traceOfRequest, withRequestSpans } from './tracing';

/*
 * ADR 0118: the HTTP server span of every request, made by `withRequestSpans` with the official SDK,
 * exported over OTLP/HTTP to a receiver of this test's own. This file's process traces; no other does.
 */
let receiver: OtlpReceiver;
let flush: (() => Promise<void>) | undefined;
let server: http.Server;
let url: string;
const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
let slowArrived: () => void;
const slowRequest = new Promise<void>((resolve) => (slowArrived = resolve));

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
  process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
  flush = await startTracing('request-spans-test');
  server = http.createServer(
    withRequestSpans((req, res) => {
      // An abandoned request is never answered: the client leaves first.
      if (req.url === '/slow') return slowArrived();
      const traced = traceOfRequest(req) !== undefined;
      res.setHeader('x-request-id', 'req_answered');
      res.writeHead(req.url?.startsWith('/broken') ? 503 : 200, { 'content-type': 'application/json' }).end(JSON.stringify({ traced }));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await flush?.();
  await receiver?.close();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
});

const spanOf = (path: string) =>
  eventually(async () => receiver.spans.find((span) => span.attributes['url.path'] === path), { what: `the span of ${path}` });

describe('withRequestSpans', () => {
  it('makes a server span per request, under the caller’s traceparent, with the path and status but no query', async () => {
    const response = await fetch(`${url}/search?q=confidential+merger`, { headers: { traceparent, 'user-agent': 'request-spans-test' } });
    expect(await response.json()).toEqual({ traced: true });
    const span = await spanOf('/search');
    expect(span).toMatchObject({
      name: 'GET',
      kind: 2,
      traceId: '0af7651916cd43dd8448eb211c80319c',
      parentSpanId: 'b7ad6b7169203331',
      status: { code: 0 },
      attributes: {
        'http.request.method': 'GET',
        'url.scheme': 'http',
        'network.protocol.version': '1.1',
        'user_agent.original': 'request-spans-test',
        'http.response.status_code': 200,
        'vrs.request_id': 'req_answered',
      },
    });
    expect(JSON.stringify(span)).not.toMatch(/confidential|merger/);
  });

  it('marks a 5xx failed', async () => {
    expect((await fetch(`${url}/broken`)).status).toBe(503);
    expect(await spanOf('/broken')).toMatchObject({ status: { code: 2 }, attributes: { 'http.response.status_code': 503 } });
  });

  it('ends the span of a request whose client leaves before the answer, marked failed, with no status code', async () => {
    const leaving = new AbortController();
    const request = fetch(`${url}/slow`, { signal: leaving.signal, headers: { 'x-request-id': 'req_abandoned' } }).catch(() => 'left');
    await slowRequest;
    leaving.abort();
    expect(await request).toBe('left');
    const span = await spanOf('/slow');
    expect(span).toMatchObject({
      status: { code: 2, message: 'the connection closed before the answer was sent' },
      attributes: { 'vrs.request_id': 'req_abandoned' },
    });
    expect(span.attributes['http.response.status_code']).toBeUndefined();
  });

  it('leaves health probes untraced', async () => {
    await fetch(`${url}/health`);
    await fetch(`${url}/after-health`);
    await spanOf('/after-health');
    expect(receiver.spans.filter((span) => span.attributes['url.path'] === '/health')).toEqual([]);
  });
});
