import { describe, expect, it } from 'vitest';
import { assertReplicas, natsServers } from './nats-servers';

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
