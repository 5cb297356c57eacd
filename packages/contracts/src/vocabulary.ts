import { z } from 'zod';

/*
 * One vocabulary for the whole API (ADR 0092). Work that waits its turn (import jobs, exports, agent
 * runs) is in one of these five states, the contract's own for agent runs. Every instant we define is
 * an ISO 8601 string; the few numbers the contract fixes (a monitor's `nextCheckAt`) say their unit.
 */
export const workStates = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export const workStateSchema = z.enum(workStates);

/**
 * States of things that are not queued work: subscriptions, monitors, webhook deliveries, a job's
 * videos, device codes, an account being deleted. A `status` the API answers is one of these or of
 * `workStates`; the OpenAPI walk (test/e2e/openapi-vocabulary.test.ts) holds the document to it.
 */
export const recordStates = [
  'none',
  'trialing',
  'active',
  'past_due',
  'disabled',
  'paused_no_credits',
  'backing_off',
  'succeeded',
  'imported',
  'approved',
  'denied',
  'consumed',
  'deleting',
] as const;

/**
 * Names stored or accepted before ADR 0092, read as today's: an import job saved `queued`, an
 * export `ready`, a subscription `canceled`. Reading through this keeps old records and old clients
 * working; the old names are accepted on input until 2027-06-30.
 */
export const formerStateNames = { queued: 'pending', ready: 'completed', canceled: 'cancelled' } as const;

/** A stored state, old name or new, as today's name. */
export function currentStateName<T extends string>(stored: T | keyof typeof formerStateNames): T {
  return ((formerStateNames as Record<string, string>)[stored] ?? stored) as T;
}

/**
 * A stored instant (epoch milliseconds, as older records and the schedulers keep them, or an ISO
 * string) as the ISO 8601 string the API answers; null stays null.
 */
export function isoInstant(stored: number | string): string;
export function isoInstant(stored: number | string | null): string | null;
export function isoInstant(stored: number | string | null): string | null {
  if (stored === null) return null;
  return new Date(stored).toISOString();
}
