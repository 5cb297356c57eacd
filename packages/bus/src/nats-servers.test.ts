import { describe, expect, it } from 'vitest';
import { JetStreamApiError } from '@nats-io/jetstream';
import { TimeoutError } from '@nats-io/transport-node';
import { assertReplicas, createConcurrently, natsServers } from './nats-servers';

describe('NATS_URL', () => {
  it('names one server or a comma-separated list of a cluster’s nodes', () => {
    expect(natsServers('nats://127.0.0.1:4222')).toEqual(['nats://127.0.0.1:4222']);
    expect(natsServers('nats://nats-1:4222, nats://nats-2:4222,nats://nats-3:4222,')).toEqual([
      'nats://nats-1:4222',
      'nats://nats-2:4222',
      'nats://nats-3:4222',
    ]);
    expect(() => natsServers(' , ')).toThrow(/names no server/);
  });

  it('takes 1 to 5 stream replicas', () => {
    expect(assertReplicas(3)).toBe(3);
    for (const bad of [0, 6, 2.5, Number.NaN]) expect(() => assertReplicas(bad)).toThrow(/Invalid NATS stream replicas/);
  });
});

describe('createConcurrently', () => {
  const apiError = (errCode: number) => new JetStreamApiError({ code: 400, err_code: errCode, description: `error ${errCode}` });

  it('creates again after "subjects overlap", the answer a concurrent identical create can get', async () => {
    let calls = 0;
    const created = await createConcurrently(async () => {
      calls++;
      if (calls < 3) throw apiError(10065);
      return 'stream';
    });
    expect([created, calls]).toEqual(['stream', 3]);
  });

  it('creates again after a request that timed out, as a cluster electing its leader leaves it', async () => {
    let calls = 0;
    const created = await createConcurrently(async () => {
      calls++;
      if (calls < 2) throw new TimeoutError();
      return 'bucket';
    });
    expect([created, calls]).toEqual(['bucket', 2]);
  });

  it('throws a lasting overlap after its attempts, and any other error at once', async () => {
    let calls = 0;
    await expect(
      createConcurrently(async () => {
        calls++;
        throw apiError(10065);
      }, 2),
    ).rejects.toThrow('error 10065');
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      createConcurrently(async () => {
        calls++;
        throw apiError(10058);
      }),
    ).rejects.toThrow('error 10058');
    expect(calls).toBe(1);
  });
});
