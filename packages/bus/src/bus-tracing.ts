import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import type { EventEnvelope } from '@vrs/contracts';
import { inSpan, traceCarrierOf, type TraceCarrier, type TraceContext, type TraceSpan } from '@vrs/kit';

/**
 * Spans of publishing and handling events (messaging semantic conventions, ADR 0102). The producer
 * span's W3C context rides in the message's headers, so the consumer's span is its child and a job
 * joins the trace of the request that queued it. With tracing off both run their work alone.
 */

/**
 * Runs `send` in a producer span, a child of `parent` (the publishing request's trace context, or
 * the carrier an outbox event stored), handing it the headers that carry the span's context, or
 * none when tracing is off.
 */
export function tracedSend<T>(
  subject: string,
  envelope: EventEnvelope<unknown>,
  parent: TraceContext | TraceCarrier | undefined,
  send: (headers: MsgHdrs | undefined) => Promise<T>,
): Promise<T> {
  return inSpan(
    `send ${envelope.type}`,
    {
      kind: 'producer',
      parent,
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'send',
        'messaging.operation.name': 'publish',
        'messaging.destination.name': subject,
        'messaging.message.id': envelope.id,
        'vrs.request_id': envelope.requestId,
      },
    },
    (_span, trace) => {
      const carrier = traceCarrierOf(trace);
      if (!carrier) return send(undefined);
      const headers = natsHeaders();
      for (const [name, value] of Object.entries(carrier)) headers.set(name, value);
      return send(headers);
    },
  );
}

/**
 * Runs `handle` in a consumer span, the child of the producer span named in `headers`, handing it the
 * span and its trace context (the handler's requests and events go under it).
 */
export function tracedProcess<T>(
  message: { subject: string; headers?: MsgHdrs; info: { deliveryCount: number } },
  consumer: string,
  envelope: EventEnvelope<unknown>,
  requestId: string,
  handle: (span?: TraceSpan, trace?: TraceContext) => Promise<T>,
): Promise<T> {
  const traceparent = message.headers?.get('traceparent');
  const tracestate = message.headers?.get('tracestate');
  return inSpan(
    `process ${envelope.type}`,
    {
      kind: 'consumer',
      parent: traceparent ? { traceparent, ...(tracestate ? { tracestate } : {}) } : undefined,
      attributes: {
        'messaging.system': 'nats',
        'messaging.operation.type': 'process',
        'messaging.operation.name': 'process',
        'messaging.destination.name': message.subject,
        'messaging.consumer.group.name': consumer,
        'messaging.message.id': envelope.id,
        'vrs.delivery_count': message.info.deliveryCount,
        'vrs.request_id': requestId,
      },
    },
    handle,
  );
}
