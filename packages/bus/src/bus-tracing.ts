import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import type { EventEnvelope } from '@vrs/contracts';
import { activeTraceCarrier, inSpan, type TraceCarrier, type TraceSpan } from '@vrs/kit';

/**
 * Spans of publishing and handling events (messaging semantic conventions, ADR 0102). The producer
 * span's W3C context rides in the message's headers, so the consumer's span is its child and a job
 * joins the trace of the request that queued it. With tracing off both run their work alone.
 */

/**
 * Runs `send` in a producer span (a child of `parent` when given: an outbox event published after
 * its request), handing it the headers that carry the span's context, or none when tracing is off.
 */
export function tracedSend<T>(
  subject: string,
  envelope: EventEnvelope<unknown>,
  parent: TraceCarrier | undefined,
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
    () => {
      const carrier = activeTraceCarrier();
      if (!carrier) return send(undefined);
      const headers = natsHeaders();
      for (const [name, value] of Object.entries(carrier)) headers.set(name, value);
      return send(headers);
    },
  );
}

/** Runs `handle` in a consumer span, the child of the producer span named in `headers`. */
export function tracedProcess<T>(
  message: { subject: string; headers?: MsgHdrs; info: { deliveryCount: number } },
  consumer: string,
  envelope: EventEnvelope<unknown>,
  requestId: string,
  handle: (span?: TraceSpan) => Promise<T>,
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
