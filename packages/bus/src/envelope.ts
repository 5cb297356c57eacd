import { z } from 'zod';
import { eventEnvelopeSchema, type EventData, type EventDefinition, type EventEnvelope } from '@vrs/contracts';

/**
 * Validates the payload (an invalid one is a programming error, so it throws) and wraps it for the
 * wire, with the id of the request that caused it when there is one.
 */
export function createEnvelope<E extends EventDefinition>(
  definition: E,
  data: EventData<E>,
  eventId: string,
  requestId?: string,
): EventEnvelope<EventData<E>> {
  if (eventId.length === 0) throw new Error(`Empty event id for ${definition.type}`);
  const parsed = definition.schema.safeParse(data);
  if (!parsed.success) {
    throw new Error(`Invalid payload for event ${definition.type}:\n${z.prettifyError(parsed.error)}`);
  }
  return {
    id: eventId,
    type: definition.type,
    occurredAt: new Date().toISOString(),
    requestId,
    data: parsed.data as EventData<E>,
  };
}

export type DecodedEvent<E extends EventDefinition> = { ok: true; envelope: EventEnvelope<EventData<E>> } | { ok: false; reason: string };

/** Parses what arrived on the wire; anything malformed is reported, never thrown, so it can be terminated. */
export function decodeEnvelope<E extends EventDefinition>(definition: E, raw: string): DecodedEvent<E> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { ok: false, reason: `not JSON: ${(error as Error).message}` };
  }
  const envelope = eventEnvelopeSchema.safeParse(json);
  if (!envelope.success) return { ok: false, reason: `bad envelope:\n${z.prettifyError(envelope.error)}` };
  if (envelope.data.type !== definition.type) {
    return { ok: false, reason: `type ${envelope.data.type} where ${definition.type} was expected` };
  }
  const data = definition.schema.safeParse(envelope.data.data);
  if (!data.success) return { ok: false, reason: `bad payload:\n${z.prettifyError(data.error)}` };
  return { ok: true, envelope: { ...envelope.data, data: data.data as EventData<E> } };
}
