import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnFreePort, type ListeningServer } from '@vrs/testing/http-server';
import { createUpstreamCall, textOf } from './upstream-fetch';

const payload = JSON.stringify({ contents: 'x'.repeat(5000), title: 'Sauerteig – crumb' });
const encoders: Record<string, (input: Buffer) => Buffer> = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

let server: ListeningServer;
let origin: string;
const acceptEncodings: (string | undefined)[] = [];

beforeAll(async () => {
  server = await listenOnFreePort((req, res) => {
    acceptEncodings.push(req.headers['accept-encoding']);
    const encoding = new URL(req.url ?? '/', 'http://x').searchParams.get('encoding') ?? 'identity';
    if (req.url?.startsWith('/moved')) return res.writeHead(302, { location: '/youtubei/v1/player?encoding=gzip' }).end();
    const body = encoders[encoding]?.(Buffer.from(payload)) ?? Buffer.from(payload);
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': body.length }).end(body);
  });
  origin = server.url;
});
afterAll(() => server.close());

describe('the upstream exchange over undici', () => {
  const call = () => createUpstreamCall({ origin });

  it.each(['gzip', 'deflate', 'br', 'identity'])('asks for compression and decodes a %s body as fetch would', async (encoding) => {
    const answer = await call()(`https://www.youtube.com/youtubei/v1/player?encoding=${encoding}`, undefined, new AbortController().signal);
    expect(answer.status).toBe(200);
    expect(textOf(answer)).toBe(payload);
    expect(answer.headers.get('content-encoding')).toBe(encoding === 'identity' ? 'identity' : null);
    expect(acceptEncodings.at(-1)).toBe('gzip, deflate, br');
  });

  it('follows a redirect to a compressed answer', async () => {
    const answer = await call()('https://www.youtube.com/moved', undefined, new AbortController().signal);
    expect(textOf(answer)).toBe(payload);
  });
});
