import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnFreePort, type ListeningServer } from '@vrs/testing/http-server';
import { middlewareSeries } from './middleware-series';

type Traced = Request & { trace?: string[] };
const mark =
  (name: string) =>
  (req: Request, _res: Response, next: NextFunction): void => {
    const traced = req as Traced;
    traced.trace = [...(traced.trace ?? []), name];
    next();
  };

describe('middlewareSeries', () => {
  let server: ListeningServer;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(
      middlewareSeries(mark('a'), async (req, _res, next) => {
        await new Promise((resolve) => setImmediate(resolve));
        mark('b')(req, _res, next);
      }),
    );
    app.get('/in-order', (req, res) => {
      res.json((req as Traced).trace);
    });
    app.use(
      '/thrown',
      middlewareSeries(
        mark('c'),
        () => {
          throw new Error('thrown');
        },
        mark('never'),
      ),
    );
    app.use(
      '/rejected',
      middlewareSeries(async () => {
        throw new Error('rejected');
      }, mark('never')),
    );
    app.use(
      '/passed',
      middlewareSeries((_req, _res, next) => next(new Error('passed')), mark('never')),
    );
    app.use((error: Error, req: Request, res: Response, _next: NextFunction) => {
      res.status(500).json({ error: error.message, trace: (req as Traced).trace });
    });
    server = await listenOnFreePort(app);
    base = server.url;
  });
  afterAll(() => server.close());

  it('runs its middlewares in order, waiting for the ones that call next later, then the next layer', async () => {
    expect(await (await fetch(`${base}/in-order`)).json()).toEqual(['a', 'b']);
  });

  it('hands a thrown error, a rejected promise or next(error) to the error handler and runs nothing after it', async () => {
    for (const [path, message, trace] of [
      ['/thrown', 'thrown', ['a', 'b', 'c']],
      ['/rejected', 'rejected', ['a', 'b']],
      ['/passed', 'passed', ['a', 'b']],
    ] as const) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: message, trace });
    }
  });
});
