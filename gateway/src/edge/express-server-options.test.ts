import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expressServerOptions } from './express-server-options';

describe('expressServerOptions', () => {
  const app = express();
  app.set('trust proxy', 1);
  app.use(express.json());
  app.post('/echo/:id', (req, res) => {
    res
      .status(201)
      .set('X-Id', req.params.id)
      .json({ path: req.path, ip: req.ip, accepts: req.accepts('json'), body: req.body, app: req.app === app });
  });
  let server: Server;
  let base: string;
  /** For each request, whether it arrived already Express's (its prototype the app's `request`), before Express saw it. */
  const bornExpress: boolean[] = [];
  beforeAll(async () => {
    server = createServer(expressServerOptions(app), app);
    server.prependListener('request', (req: IncomingMessage, res) => {
      bornExpress.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('has every request and response born with the app’s prototypes, and Express’s methods work on them', async () => {
    const response = await fetch(`${base}/echo/42?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-id')).toBe('42');
    expect(await response.json()).toEqual({ path: '/echo/42', ip: '203.0.113.9', accepts: 'json', body: { a: 1 }, app: true });
    expect(bornExpress).toEqual([true]);
  });
});
