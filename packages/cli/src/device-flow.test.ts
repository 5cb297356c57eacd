import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnFreePort, type ListeningServer } from '@vrs/testing/http-server';
import { DeviceFlowError, deviceGrantType, runDeviceFlow } from './device-flow';

/**
 * A small RFC 8628 server shaped like the gateway's authorization server: metadata, then the
 * device authorization answer, then the token endpoint's scripted answers in order, each refusal an
 * RFC 6749 §5.2 body (with `interval` on `slow_down:<seconds>`). Bodies are recorded as forms.
 */
async function fakeAuthServer(tokenAnswers: (string | 'token')[], code: Record<string, unknown> = {}) {
  const requests: { path: string; body: any }[] = [];
  const respond = async (req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    requests.push({ path: req.url!, body: Object.fromEntries(new URLSearchParams(text)) });
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/oauth-authorization-server') {
      res.end(
        JSON.stringify({
          issuer: server.url,
          device_authorization_endpoint: `${server.url}/oauth/device_authorization`,
          token_endpoint: `${server.url}/oauth/token`,
          revocation_endpoint: `${server.url}/oauth/revoke`,
        }),
      );
      return;
    }
    if (req.url === '/oauth/device_authorization') {
      res.end(
        JSON.stringify({
          device_code: 'dev-123',
          user_code: 'WDJB-MJHT',
          verification_uri: 'https://example.test/device',
          verification_uri_complete: 'https://example.test/device?user_code=WDJB-MJHT',
          expires_in: 600,
          interval: 2,
          ...code,
        }),
      );
      return;
    }
    const answer = tokenAnswers.shift() ?? 'expired_token';
    if (answer === 'token') {
      res.end(
        JSON.stringify({
          access_token: 'ato_token',
          token_type: 'Bearer',
          expires_in: 3600,
          refresh_token: 'atr_token',
          scope: 'data:read data:write',
        }),
      );
      return;
    }
    const [error, interval] = answer.split(':');
    res.statusCode = 400;
    res.end(JSON.stringify({ error, error_description: `${error} said`, ...(interval ? { interval: Number(interval) } : {}) }));
  };
  // A failed answer fails the request the client under test is waiting on.
  const server = await listenOnFreePort((req, res) => void respond(req, res).catch((error) => res.destroy(error)));
  servers.push(server);
  return { url: server.url, requests };
}

const servers: ListeningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A clock the flow's sleeps move, so nothing waits for real. */
function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe('the RFC 8628 device flow', () => {
  it('shows the code, polls at the server interval, takes the slower interval slow_down names, and answers the token', async () => {
    const server = await fakeAuthServer(['authorization_pending', 'slow_down:9', 'authorization_pending', 'token']);
    const time = fakeTime();
    const shown: string[] = [];
    const token = await runDeviceFlow({
      apiUrl: server.url,
      scopes: ['data:read', 'data:write'],
      onCode: (code) => shown.push(code.user_code, code.verification_uri_complete!),
      ...time,
    });
    expect(token).toEqual({
      access_token: 'ato_token',
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: 'atr_token',
      scope: 'data:read data:write',
    });
    expect(shown).toEqual(['WDJB-MJHT', 'https://example.test/device?user_code=WDJB-MJHT']);
    expect(time.sleeps).toEqual([2000, 2000, 9000, 9000]);
    // Discovered, then form-encoded as RFC 8628 §3.1 and §3.4 say, with the CLI's client_id.
    expect(server.requests[0]!.path).toBe('/.well-known/oauth-authorization-server');
    expect(server.requests[1]).toEqual({
      path: '/oauth/device_authorization',
      body: { client_id: 'vrs-cli', scope: 'data:read data:write' },
    });
    expect(server.requests.slice(2).map((request) => request.path)).toEqual(Array(4).fill('/oauth/token'));
    expect(server.requests[2]!.body).toEqual({ device_code: 'dev-123', grant_type: deviceGrantType, client_id: 'vrs-cli' });
  });

  it('asks without a scope when none is named, and slows down by 5 s when slow_down names no interval', async () => {
    const server = await fakeAuthServer(['slow_down', 'token']);
    const time = fakeTime();
    await runDeviceFlow({ apiUrl: server.url, onCode: () => {}, ...time });
    expect(server.requests[1]!.body).toEqual({ client_id: 'vrs-cli' });
    expect(time.sleeps).toEqual([2000, 7000]);
  });

  it('stops on access_denied and on expired_token with a reason', async () => {
    const denied = await fakeAuthServer(['authorization_pending', 'access_denied']);
    const flow = runDeviceFlow({ apiUrl: denied.url, onCode: () => {}, ...fakeTime() });
    await expect(flow).rejects.toMatchObject({ name: 'DeviceFlowError', reason: 'access_denied' });
    const expired = await fakeAuthServer(['expired_token']);
    await expect(runDeviceFlow({ apiUrl: expired.url, onCode: () => {}, ...fakeTime() })).rejects.toBeInstanceOf(DeviceFlowError);
  });

  it('gives up once expires_in has passed on its own clock, without polling past it', async () => {
    const server = await fakeAuthServer(Array(100).fill('authorization_pending'), { expires_in: 10, interval: 3 });
    const time = fakeTime();
    await expect(runDeviceFlow({ apiUrl: server.url, onCode: () => {}, ...time })).rejects.toMatchObject({
      reason: 'expired_token',
    });
    expect(time.sleeps).toEqual([3000, 3000, 3000, 3000]);
  });

  it('passes on any other refusal as an ApiError with the RFC body in details', async () => {
    const server = await fakeAuthServer(['something_else']);
    await expect(runDeviceFlow({ apiUrl: server.url, onCode: () => {}, ...fakeTime() })).rejects.toMatchObject({
      name: 'ApiError',
      status: 400,
      details: { error: 'something_else' },
    });
  });
});
