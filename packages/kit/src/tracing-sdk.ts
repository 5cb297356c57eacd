import { createRequire } from 'node:module';
import * as api from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';

/** Liveness and readiness probes: not requests anyone follows, and they would flood the traces. */
const probePaths = new Set(['/health', '/ready', '/v1/health', '/v1/ready', '/metrics']);

/**
 * OpenTelemetry's Node SDK, imported only when tracing is on (`tracing.ts`). The exporter, protocol,
 * sampler and propagators come from the standard OTEL_* variables; metrics (Prometheus) and logs
 * (JSON on stdout, joined to traces by `trace_id`) are not sent over OTLP.
 */
export function startTracingSdk(service: string): { api: typeof api; shutdown: () => Promise<void> } {
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || service,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => probePaths.has((request.url ?? '').split('?', 1)[0] ?? ''),
        // Every answer carries the request's id (the gateway's own, or the one a service was called with).
        applyCustomAttributesOnSpan(span, _request, response) {
          const requestId = 'getHeader' in response ? response.getHeader('x-request-id') : undefined;
          if (typeof requestId === 'string') span.setAttribute('vrs.request_id', requestId);
        },
      }),
      // Service calls and upstream calls (YouTube, the LLM, webhooks) all go through undici.
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  // The HTTP instrumentation patches `http` when it is next required; our ES modules imported it
  // already, so require it once here (its Server.prototype is what gets patched).
  createRequire(import.meta.url)('node:http');
  return { api, shutdown: () => sdk.shutdown() };
}
