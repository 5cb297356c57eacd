import type { EventEnvelope } from '@vrs/contracts';
import { newRequestId, type RequestContext } from '@vrs/kit';

/**
 * The context a handler works under: the originating request's id (a new one for an event published
 * outside any request), so its logs and the service calls it makes (`forRequest`) carry it.
 */
export function eventRequestContext(envelope: EventEnvelope<unknown>): RequestContext {
  return { requestId: envelope.requestId ?? newRequestId(), caller: `event:${envelope.type}` };
}
