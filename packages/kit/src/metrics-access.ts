import type { IncomingMessage } from 'node:http';
import type { InternalClient } from './internal-clients';

/**
 * Who may read `GET /metrics` (ADR 0101): the services' internal token, or a named internal client
 * whose entry allows `metrics` (or `*`). Prometheus sends it as a bearer token (`authorization` in a
 * scrape config); X-Internal-Token works too.
 */
export function metricsSecretOf(req: IncomingMessage): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim();
  const token = req.headers['x-internal-token'];
  return Array.isArray(token) ? token[0] : token;
}

export function clientMayReadMetrics(client: InternalClient | undefined): boolean {
  return client?.allow.some((pattern) => pattern === '*' || pattern === 'metrics') ?? false;
}

export const metricsRefusal = JSON.stringify({
  error: {
    code: 'UNAUTHENTICATED',
    message: 'Metrics need the internal token, or a named internal client allowed `metrics`, as a bearer token.',
  },
});
