import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenOnFreePort } from './http-server';

describe('listenOnFreePort', () => {
  it('serves a request listener on 127.0.0.1, and refuses connections once closed', async () => {
    const served = await listenOnFreePort((req, res) => res.end(`asked for ${req.url}`));
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${served.url}/x`)).text()).toBe('asked for /x');
    await served.close();
    await expect(fetch(served.url)).rejects.toThrow();
  });

  it('takes a server set up beforehand', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    const served = await listenOnFreePort(server);
    expect(served.server).toBe(server);
    expect(await (await fetch(served.url)).text()).toBe('ok');
    await served.close();
  });

  // server.close() alone waits for a response in progress; this one is never ended.
  it('closes while a response is still open, ending its connection', { timeout: 60_000 }, async () => {
    const served = await listenOnFreePort((_req, res) => res.writeHead(200).write('a first part'));
    const response = await fetch(served.url);
    await served.close();
    await expect(response.text()).rejects.toThrow();
  });
});
