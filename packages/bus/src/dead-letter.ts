import { z } from 'zod';
import { eventEnvelopeSchema, type EventEnvelope } from '@vrs/contracts';

/** An event a consumer's handler failed on at every delivery, kept so it can be replayed once the cause is fixed. */
export interface DeadLetter {
  /** The consumer name given to `subscribe` whose handler gave up. */
  consumer: string;
  /** The last failure's message. */
  error: string;
  /** Deliveries made before giving up (the consumer's maxDeliver). */
  attempts: number;
  deadAt: string;
  /** The event exactly as it was published, original id included. */
  envelope: EventEnvelope<unknown>;
}

export interface DeadLetterQuery {
  /** Only this consumer's dead letters; all consumers' when absent. */
  consumer?: string;
  /** At most this many, oldest first; all when absent. */
  limit?: number;
}

export interface ReplayResult {
  /** Dead letters republished (and then removed), oldest first. */
  replayed: DeadLetter[];
}

export const deadLetterSchema = z.object({
  consumer: z.string().min(1),
  error: z.string(),
  attempts: z.number().int().positive(),
  deadAt: z.string(),
  envelope: eventEnvelopeSchema,
});

export function deadLetterFor(consumer: string, error: unknown, attempts: number, envelope: EventEnvelope<unknown>): DeadLetter {
  const message = error instanceof Error ? error.message : String(error);
  return { consumer, error: message, attempts, deadAt: new Date().toISOString(), envelope };
}
