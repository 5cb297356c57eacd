import type { CountOverride } from './count-overrides';
import type { FaultRule } from './faults';
import type { HitCounts, UnmatchedRequest } from './server';

/**
 * The fake upstream's control API, over HTTP: for tests that drive a fake running elsewhere (the
 * e2e stack's, started in vitest's global setup).
 */
export function fakeYouTubeControl(url: string) {
  async function call<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
    const response = await fetch(`${url}/__control/${route}`, {
      method,
      ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) } : {}),
    });
    if (!response.ok) throw new Error(`fake YouTube control ${method} ${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }
  return {
    addFault: (rule: FaultRule) => call('POST', 'faults', rule),
    setLatency: (delayMs: number) => call('POST', 'latency', { delayMs }),
    setCounts: (override: CountOverride) => call('POST', 'counts', override),
    select: (id: string) => call('POST', 'select', { id }),
    unselect: (id: string) => call('POST', 'unselect', { id }),
    useVariant: (name: string) => call('POST', 'variant', { name, on: true }),
    dropVariant: (name: string) => call('POST', 'variant', { name, on: false }),
    reset: () => call('POST', 'reset'),
    hits: () => call<HitCounts>('GET', 'hits'),
    unmatched: () => call<UnmatchedRequest[]>('GET', 'unmatched'),
  };
}

export type FakeYouTubeControl = ReturnType<typeof fakeYouTubeControl>;
