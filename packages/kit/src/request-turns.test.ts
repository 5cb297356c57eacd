import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { listenOnFreePort } from '@vrs/testing/http-server';
import { handleInTurns } from './request-turns';

/** Holds the thread for `ms`, as a request's synchronous work does. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A request and response pair as a poll phase hands them over; only their identity matters here. */
const requestPair = (n: number) => [{ n } as unknown as IncomingMessage, {} as ServerResponse] as const;

describe('handleInTurns', () => {
  it('starts the requests of one poll phase from later turns, a budget at a time, in arrival order, with timers run between', async () => {
    const started: { n: number; timerRan: boolean }[] = [];
    let timerRan = false;
    const handle = handleInTurns((req) => {
      started.push({ n: (req as unknown as { n: number }).n, timerRan });
      busy(2);
    }, 3);
    setTimeout(() => {
      timerRan = true;
    }, 0);
    // Twenty requests delivered in one go, as a loaded server's poll phase delivers them.
    for (let n = 0; n < 20; n++) handle(...requestPair(n));
    expect(started).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    // The first drain: the requests of 2 ms each that fit a budget of 3 ms (two, or one on a loaded machine).
    expect(started.length).toBeGreaterThanOrEqual(1);
    expect(started.length).toBeLessThanOrEqual(2);
    // All of them, however long a loaded machine takes over the turns (a fixed 100 ms wait could end first).
    await vi.waitFor(() => expect(started).toHaveLength(20), { timeout: 20_000, interval: 10 });
    expect(started.map((s) => s.n)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    // The timer set before them fired while they were still being started.
    expect(started.at(-1)!.timerRan).toBe(true);
  });

  it('starts the request of an idle server in the turn it arrives', async () => {
    const started: number[] = [];
    const handle = handleInTurns((req) => {
      started.push((req as unknown as { n: number }).n);
      busy(5);
    }, 1);
    for (let n = 0; n < 3; n++) {
      handle(...requestPair(n));
      await new Promise((resolve) => setImmediate(resolve));
      expect(started).toEqual(Array.from({ length: n + 1 }, (_, i) => i));
    }
  });

  it('hands every request straight to the handler with a budget of 0', () => {
    const started: number[] = [];
    const handle = handleInTurns((req) => {
      started.push((req as unknown as { n: number }).n);
      busy(2);
    }, 0);
    for (let n = 0; n < 5; n++) handle(...requestPair(n));
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('answers every request of many concurrent connections through a real server', async () => {
    const server = await listenOnFreePort(
      handleInTurns((req, res) => {
        busy(1);
        res.end(req.url);
      }, 2),
    );
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    try {
      const bodies = await Promise.all(
        Array.from(
          { length: 200 },
          (_, i) =>
            new Promise<string>((resolve, reject) => {
              http
                .get(`${server.url}/r${i}`, { agent }, (res) => {
                  let body = '';
                  res.on('data', (chunk) => {
                    body += chunk;
                  });
                  res.on('end', () => resolve(body));
                })
                .on('error', reject);
            }),
        ),
      );
      expect(bodies).toEqual(Array.from({ length: 200 }, (_, i) => `/r${i}`));
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});
