import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnFreePort, type ListeningServer } from '@vrs/testing/http-server';
import { ApiError, createVrsClient, readEventStream } from './index';

let server: ListeningServer;
let baseUrl: string;
const seen: { url: string; authorization?: string }[] = [];

beforeAll(async () => {
  server = await listenOnFreePort((req, res) => {
    seen.push({ url: req.url!, authorization: req.headers.authorization });
    res.setHeader('x-request-id', 'req_abc');
    if (req.url === '/v1/projects?limit=2') {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-credits-charged', '0');
      res.setHeader('x-credits-remaining', '99');
      res.setHeader('ratelimit-limit', '600');
      res.setHeader('ratelimit-remaining', '599');
      res.setHeader('ratelimit-reset', '42');
      res.setHeader('ratelimit-policy', '600;w=60');
      res.end(JSON.stringify({ data: [{ id: 'p1', name: 'A', createdAt: '2026-01-01T00:00:00Z' }], hasMore: false, nextCursor: null }));
      return;
    }
    if (req.url === '/v1/billing') {
      res.statusCode = 402;
      res.setHeader('content-type', 'application/json');
      res.setHeader('retry-after', '7');
      res.end(
        JSON.stringify({
          error: { code: 'INSUFFICIENT_CREDITS', message: 'Short.', details: { balance: 0, required: 1 }, requestId: 'req_env' },
        }),
      );
      return;
    }
    if (req.url === '/v1/events') {
      res.setHeader('content-type', 'text/event-stream');
      res.write(': keep-alive\n\nid: 1\nevent: status\ndata: {"status":"running"}\n\n');
      res.end('id: 2\nevent: status\ndata: {"status":"completed"}\n\n');
      return;
    }
    res.statusCode = 502;
    res.end('<html>bad gateway</html>');
  });
  baseUrl = `${server.url}/`;
});
afterAll(() => server.close());

describe('the typed client', () => {
  it('answers typed data with the credit and rate-limit headers, sending the token as a bearer', async () => {
    const client = createVrsClient({ baseUrl, token: 'aty_key' });
    const { data, meta } = await client.send(client.api.GET('/projects', { params: { query: { limit: 2 } } }));
    expect(data.data[0]!.name).toBe('A');
    expect(meta).toEqual({
      status: 200,
      requestId: 'req_abc',
      credits: { charged: 0, remaining: 99 },
      rateLimit: { limit: 600, remaining: 599, resetSeconds: 42, policy: '600;w=60' },
      retryAfterSeconds: undefined,
    });
    expect(seen.at(-1)).toEqual({ url: '/v1/projects?limit=2', authorization: 'Bearer aty_key' });
  });

  it('throws the envelope as an ApiError with status, code, message, requestId and details', async () => {
    const client = createVrsClient({ baseUrl });
    const error = await client.send(client.api.GET('/billing')).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 402,
      code: 'INSUFFICIENT_CREDITS',
      message: 'Short.',
      requestId: 'req_env',
      details: { balance: 0, required: 1 },
      meta: { retryAfterSeconds: 7 },
    });
  });

  it('reports a response without the envelope, and a refused connection, as ApiErrors too', async () => {
    const client = createVrsClient({ baseUrl });
    await expect(client.raw('/nowhere')).rejects.toMatchObject({ status: 502, code: 'UNEXPECTED_RESPONSE', requestId: 'req_abc' });
    const closed = createVrsClient({ baseUrl: 'http://127.0.0.1:9' });
    await expect(closed.send(closed.api.GET('/projects'))).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    await expect(closed.raw('/projects')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('reads server-sent events as they arrive, skipping comments', async () => {
    const client = createVrsClient({ baseUrl });
    const events = [];
    for await (const event of readEventStream(await client.raw('/events'))) events.push(event);
    expect(events).toEqual([
      { id: '1', event: 'status', data: { status: 'running' } },
      { id: '2', event: 'status', data: { status: 'completed' } },
    ]);
  });
});
