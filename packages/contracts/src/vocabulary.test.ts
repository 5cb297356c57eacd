import { describe, expect, it } from 'vitest';
import { settableSubscriptionStatusSchema } from './billing';
import { currentStateName, isoInstant, workStates } from './vocabulary';

describe('one vocabulary (ADR 0092)', () => {
  it('reads the state names stored before it as today’s, and today’s as themselves', () => {
    expect(currentStateName('queued')).toBe('pending');
    expect(currentStateName('ready')).toBe('completed');
    expect(currentStateName('canceled')).toBe('cancelled');
    for (const state of workStates) expect(currentStateName(state)).toBe(state);
    expect(currentStateName('past_due')).toBe('past_due');
  });

  it('accepts the old `canceled` from an operator, as `cancelled`', () => {
    expect(settableSubscriptionStatusSchema.parse('canceled')).toBe('cancelled');
    expect(settableSubscriptionStatusSchema.parse('cancelled')).toBe('cancelled');
    expect(settableSubscriptionStatusSchema.safeParse('cancel').success).toBe(false);
  });

  it('answers a stored instant, epoch milliseconds or ISO, as an ISO 8601 string', () => {
    expect(isoInstant(Date.UTC(2026, 0, 21, 8))).toBe('2026-01-21T08:00:00.000Z');
    expect(isoInstant('2026-01-21T08:00:00.000Z')).toBe('2026-01-21T08:00:00.000Z');
    expect(isoInstant(null)).toBeNull();
  });
});
