import { z } from 'zod';

/** Services that own a JetStream stream (one stream per producing service). */
export const serviceNames = ['billing', 'research', 'provider', 'trends', 'agents', 'monitoring'] as const;
export type ServiceName = (typeof serviceNames)[number];

/**
 * An event kind: its subject `<service>.<aggregate>.<pastTense>` and the zod schema of its payload.
 * The subject is the event's type; the bus prefixes it with the namespace on the wire.
 */
export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  type: string;
  service: ServiceName;
  schema: S;
}

export function defineEvent<S extends z.ZodType>(
  type: `${ServiceName}.${string}.${string}`,
  schema: S,
): EventDefinition<S> {
  const [service] = type.split('.') as [ServiceName];
  return { type, service, schema };
}

/** What travels on the wire: the payload plus what every consumer needs to trace and dedupe it. */
export const eventEnvelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  occurredAt: z.string(),
  requestId: z.string().optional(),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'data'> & { data: T };

export type EventData<E extends EventDefinition> = z.infer<E['schema']>;

export const researchEvidenceAdded = defineEvent(
  'research.evidence.added',
  z.object({
    accountId: z.string().min(1),
    projectId: z.string().uuid(),
    evidenceIds: z.array(z.string().min(1)).min(1),
  }),
);
