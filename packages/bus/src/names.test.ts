import { describe, expect, it } from 'vitest';
import { researchEvidenceAdded } from '@vrs/contracts';
import { redeliveryDelayMs, resolveBusTimings } from './bus-timings';
import {
  belongsToNamespace,
  deadLetterStreamNameFor,
  deadLetterSubjectFor,
  deadLetterSubjectsFor,
  durableNameFor,
  kvBucketNameFor,
  streamNameFor,
  streamSubjectsFor,
  subjectFor,
} from './names';

describe('names', () => {
  it('prefixes every name with the namespace', () => {
    expect(subjectFor('ci-42', researchEvidenceAdded)).toBe('ci-42.research.evidence.added');
    expect(streamNameFor('ci-42', 'research')).toBe('ci-42_research');
    expect(streamSubjectsFor('ci-42', 'research')).toEqual(['ci-42.research.>']);
    expect(durableNameFor('ci-42', 'monitoring-on-evidence')).toBe('ci-42_monitoring-on-evidence');
    expect(kvBucketNameFor('ci-42', 'rate-limits')).toBe('ci-42_rate-limits');
    expect(deadLetterSubjectFor('ci-42', 'evidence-indexer')).toBe('ci-42.dead-letters.evidence-indexer');
  });

  it('puts the dead-letter stream in the namespace, so deleting the namespace removes it', () => {
    const stream = { name: deadLetterStreamNameFor('ci-42'), subjects: deadLetterSubjectsFor('ci-42') };
    expect(belongsToNamespace(stream, 'ci-42')).toBe(true);
    expect(belongsToNamespace(stream, 'ci')).toBe(false);
  });

  it.each(['', 'a.b', 'a b', 'a*', 'a>', 'ä', 'a/b'])('rejects the namespace %j', (namespace) => {
    expect(() => streamNameFor(namespace, 'research')).toThrow(/Invalid NATS namespace/);
  });

  it('rejects consumer and bucket names that would break the wire names', () => {
    expect(() => durableNameFor('ns', 'a.b')).toThrow(/Invalid consumer name/);
    expect(() => kvBucketNameFor('ns', 'rate_limits')).toThrow(/Invalid KV bucket/);
  });

  it('tells a namespace’s streams from those of a namespace sharing its prefix', () => {
    const stream = (namespace: string, service: 'research') => ({
      name: streamNameFor(namespace, service),
      subjects: streamSubjectsFor(namespace, service),
    });
    const bucket = (namespace: string, name: string) => ({
      name: `KV_${kvBucketNameFor(namespace, name)}`,
      subjects: [`$KV.${kvBucketNameFor(namespace, name)}.>`],
    });

    expect(belongsToNamespace(stream('a', 'research'), 'a')).toBe(true);
    expect(belongsToNamespace(bucket('a', 'counters'), 'a')).toBe(true);
    expect(belongsToNamespace(stream('a_b', 'research'), 'a')).toBe(false);
    expect(belongsToNamespace(bucket('a_b', 'counters'), 'a')).toBe(false);
    expect(belongsToNamespace(stream('KV_a', 'research'), 'a')).toBe(false);
    expect(belongsToNamespace({ name: 'a_research', subjects: ['elsewhere.>'] }, 'a')).toBe(false);
  });
});

describe('bus timings', () => {
  it('fills in defaults and walks the backoff, repeating its last step', () => {
    const timings = resolveBusTimings({ redeliveryBackoffMs: [10, 20] });
    expect(timings).toMatchObject({ ackWaitMs: 30_000, maxDeliver: 10 });
    expect([1, 2, 3, 9].map((delivery) => redeliveryDelayMs(timings, delivery))).toEqual([10, 20, 20, 20]);
  });

  it('rejects nonsense', () => {
    expect(() => resolveBusTimings({ maxDeliver: 0 })).toThrow(/Invalid bus timings/);
    expect(() => resolveBusTimings({ ackWaitMs: -1 })).toThrow(/Invalid bus timings/);
  });
});
