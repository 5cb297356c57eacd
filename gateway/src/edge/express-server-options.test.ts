import { createServer, type IncomingMessage } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnFreePort, type ListeningServer } from '@vrs/testing/http-server';
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
  let server: ListeningServer;
  let base: string;
  /** For each request, whether it arrived already Express's (its prototype the app's `request`), before Express saw it. */
  const bornExpress: boolean[] = [];
  beforeAll(async () => {
    const http = createServer(expressServerOptions(app), app);
    http.prependListener('request', (req: IncomingMessage, res) => {
      bornExpress.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
    });
    server = await listenOnFreePort(http);
    base = server.url;
  });
  afterAll(() => server.close());

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
