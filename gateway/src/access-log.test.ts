import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '@vrs/kit';
import { accessLog } from './access-log';

/** A real Express app behind the access log; the logger records each line's level and message. */
const lines: { level: string; msg: string; statusCode: number }[] = [];
const record = (level: string) => (fields: { res: { statusCode: number } }, msg: string) => {
  lines.push({ level, msg, statusCode: fields.res.statusCode });
};
const logger = { isLevelEnabled: () => true, error: record('error'), warn: record('warn'), info: record('info') } as unknown as Logger;
const app = express();
app.use(accessLog(logger));
app.get('/status/:code', (req, res) => {
  res.status(Number(req.params.code)).json({});
});
let server: ReturnType<typeof app.listen>;
let base: string;
beforeAll(async () => {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const levelOf = async (code: number) => {
  await (await fetch(`${base}/status/${code}`)).text();
  await new Promise((resolve) => setImmediate(resolve));
  const line = lines.findLast((entry) => entry.statusCode === code)!;
  return { level: line.level, msg: line.msg };
};

describe('access log levels', () => {
  it('logs a 500 as an error, an outage answered (503, 502, 504) as a warning, and a 4xx or 2xx as info', async () => {
    expect(await levelOf(500)).toEqual({ level: 'error', msg: 'request failed' });
    for (const code of [502, 503, 504]) expect(await levelOf(code)).toEqual({ level: 'warn', msg: 'request completed' });
    for (const code of [200, 402, 404, 422]) expect(await levelOf(code)).toEqual({ level: 'info', msg: 'request completed' });
  });
});
