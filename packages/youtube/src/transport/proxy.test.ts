import { createServer } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnFreePort } from '@vrs/testing/http-server';
import type { FakeYouTube } from '@vrs/testing/upstreams/youtube/server';
import { hasRecorded, reportMissingShared, startReplay, testClient } from '@vrs/testing/youtube-replay';

reportMissingShared('proxy');

/** A minimal CONNECT proxy that counts the tunnels it opens. */
async function startTunnelProxy() {
  const tunnels: string[] = [];
  const server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, clientSocket, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    upstream.on('error', () => clientSocket.destroy());
    clientSocket.on('error', () => upstream.destroy());
  });
  const { url, close } = await listenOnFreePort(server);
  return { url, tunnels, close };
}

describe.skipIf(!hasRecorded)('egress proxy', () => {
  let fake: FakeYouTube;
  let proxy: Awaited<ReturnType<typeof startTunnelProxy>>;
  beforeAll(async () => {
    fake = await startReplay();
    proxy = await startTunnelProxy();
  });
  afterAll(async () => {
    await fake.close();
    await proxy.close();
  });

  it('sends every upstream request through the configured proxy', async () => {
    const video = await testClient(fake, { proxyUrl: proxy.url }).getVideo('rCAS2eD-mcw');
    expect(video.id).toBe('rCAS2eD-mcw');
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([`127.0.0.1:${fake.port}`]));
  });
});
