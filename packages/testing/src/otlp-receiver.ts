import { gunzipSync } from 'node:zlib';
import { listenOnFreePort } from './http-server';

/** A span as received, with its process's `service.name` and its attributes as plain values. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Absent on a trace's root. */
  parentSpanId?: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  /** OTLP's status: code 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
}

export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT; spans arrive at `<url>/v1/traces`. */
  url: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
type OtlpAttributes = Array<{ key: string; value: OtlpValue }> | undefined;

function plain(attributes: OtlpAttributes): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const { key, value } of attributes ?? []) {
    values[key] =
      value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.boolValue ?? value.doubleValue;
  }
  return values;
}

/**
 * An OTLP/HTTP receiver of traces in the JSON encoding (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), as
 * a collector would take them: a real HTTP server decoding what the SDK's exporter sends. Other
 * signals are accepted and dropped.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const listening = await listenOnFreePort((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const body = Buffer.concat(chunks);
        const text = (request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8');
        const { resourceSpans = [] } = JSON.parse(text) as {
          resourceSpans?: Array<{
            resource?: { attributes?: OtlpAttributes };
            scopeSpans?: Array<{
              spans?: Array<{
                traceId: string;
                spanId: string;
                parentSpanId?: string;
                name: string;
                kind: number;
                attributes?: OtlpAttributes;
                status?: { code?: number; message?: string };
              }>;
            }>;
          }>;
        };
        for (const { resource, scopeSpans = [] } of resourceSpans) {
          const service = String(plain(resource?.attributes)['service.name']);
          for (const { spans: received = [] } of scopeSpans) {
            for (const span of received) {
              spans.push({
                service,
                traceId: span.traceId,
                spanId: span.spanId,
                ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
                name: span.name,
                kind: span.kind,
                attributes: plain(span.attributes),
                status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
              });
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { url: listening.url, spans, close: listening.close };
}
