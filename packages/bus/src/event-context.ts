import type { EventEnvelope } from '@vrs/contracts';
import { newRequestId, runWithRequestContext } from '@vrs/kit';

/** Runs a handler under the originating request's id, so its logs and outgoing calls carry it. */
export function runInEventContext<T>(envelope: EventEnvelope<unknown>, fn: () => Promise<T>): Promise<T> {
  return runWithRequestContext({ requestId: envelope.requestId ?? newRequestId(), caller: `event:${envelope.type}` }, fn);
}
