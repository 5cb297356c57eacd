import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { startGatewayProcess, type RunningProcess } from '@vrs/testing/processes';

const stackEnv = inject('stackEnv');
const logDir = inject('logDir');

/** What a slow sender saw: whether the server closed the connection, after how long, and what it answered first. */
interface SlowSend {
  closedByServer: boolean;
  afterMs: number;
  answer: string;
}

/**
 * A raw connection that sends `head` at once, then one byte of `drip` per second, as a slowloris
 * client does, until the server closes it or `giveUpMs` passes (then it closes itself).
 */
function slowSend(url: string, head: string, drip: string, giveUpMs: number): Promise<SlowSend> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    let closedByUs = false;
    let timer: NodeJS.Timeout | undefined;
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(head);
      let sent = 0;
      timer = setInterval(() => {
        if (Date.now() - started > giveUpMs) {
          closedByUs = true;
          socket.destroy();
          return;
        }
        if (socket.writable) socket.write(drip[sent++ % drip.length]!);
      }, 1_000);
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the server's answer is the server closing too.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedByServer: !closedByUs, afterMs: Date.now() - started, answer: Buffer.concat(chunks).toString() });
    });
  });
}

/**
 * A gateway of its own with short limits (1 s for headers, 2 s for the whole request; the defaults
 * are 10 s and 60 s), so the test runs quickly; the rest of the stack is the shared one.
 */
describe('slow clients cannot hold connections (issue 37, item 9)', () => {
  let gateway: RunningProcess;
  // Without the timeouts Node's defaults (60 s for headers, checked every 30 s) keep every slow sender here open.
  const giveUpMs = 25_000;

  beforeAll(async () => {
    gateway = await startGatewayProcess(
      'gateway-slow-clients',
      { ...stackEnv, HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' },
      logDir,
    );
  });
  afterAll(() => gateway?.stop());

  it('connections sending headers a byte a second are answered 408 REQUEST_TIMEOUT and closed, while other requests are served', {
    timeout: 60_000,
  }, async () => {
    const senders = Array.from({ length: 20 }, (_, i) =>
      slowSend(gateway.url, `GET /v1/health HTTP/1.1\r\nHost: localhost\r\nX-Slow-${i}: `, 'abcdefgh', giveUpMs),
    );
    // Served meanwhile.
    expect((await fetch(`${gateway.url}/v1/health`)).status).toBe(200);
    const results = await Promise.all(senders);
    for (const result of results) {
      expect(result.closedByServer, `closed after ${result.afterMs} ms`).toBe(true);
      expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(result.answer).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(result.answer.slice(result.answer.indexOf('\r\n\r\n') + 4)).error).toMatchObject({
        code: 'REQUEST_TIMEOUT',
        requestId: expect.any(String),
      });
    }
  });

  it('a request whose body trickles in is answered 408 and closed once the request timeout passes', async () => {
    const head =
      'POST /v1/projects HTTP/1.1\r\nHost: localhost\r\nX-Demo-User: slow-body\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"name":"';
    const result = await slowSend(gateway.url, head, 'x', giveUpMs);
    expect(result.closedByServer, `closed after ${result.afterMs} ms`).toBe(true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.answer).toContain('"code":"REQUEST_TIMEOUT"');
  });

  it('an idle keep-alive connection is not cut by them: a request after 3 s of quiet on it is answered', async () => {
    const { hostname, port } = new URL(gateway.url);
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    const answers = () => received.match(/HTTP\/1\.1 200 /g)?.length ?? 0;
    socket.write('GET /v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await vi.waitFor(() => expect(answers()).toBe(1), { timeout: 10_000 });
    await sleep(3_000);
    socket.write('GET /v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await vi.waitFor(() => expect(answers()).toBe(2), { timeout: 10_000 });
    expect(received).not.toContain(' 408 ');
    socket.destroy();
  });

  it('a client that sends its request at an ordinary pace is answered', async () => {
    const response = await fetch(`${gateway.url}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-demo-user': `slow-clients-${Date.now()}` },
      body: JSON.stringify({ name: 'On time' }),
    });
    expect(response.status).toBe(200);
  });
});
