import { z } from 'zod';
import { eventEnvelopeSchema, type EventEnvelope } from '@vrs/contracts';

export const deadLetterSchema = z.object({
  /** The consumer name given to `subscribe` whose handler gave up. */
  consumer: z.string().min(1),
  /** The last failure's message. */
  error: z.string(),
  /** Deliveries made before giving up (the consumer's maxDeliver). */
  attempts: z.number().int().positive(),
  deadAt: z.string(),
  /** The event exactly as it was published, original id included. */
  envelope: eventEnvelopeSchema,
});

/** An event a consumer's handler failed on at every delivery, kept so it can be replayed once the cause is fixed. */
export type DeadLetter = z.infer<typeof deadLetterSchema>;

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

export function deadLetterFor(consumer: string, error: unknown, attempts: number, envelope: EventEnvelope<unknown>): DeadLetter {
  const message = error instanceof Error ? error.message : String(error);
  return { consumer, error: message, attempts, deadAt: new Date().toISOString(), envelope };
}
