import type { Behaviour } from './behaviours';
import type { RecordedRequest } from './server';

/**
 * The fake LLM's control API, over HTTP: for tests that drive a fake running elsewhere (the e2e
 * stack's, started in vitest's global setup).
 */
export function fakeLlmControl(url: string) {
  async function call<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
    const response = await fetch(`${url}/__control/${route}`, {
      method,
      ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) } : {}),
    });
    if (!response.ok) throw new Error(`fake LLM control ${method} ${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }
  return {
    setBehaviour: (model: string, behaviour: Behaviour) => call('POST', 'behaviour', { model, behaviour }),
    setLatency: (latencyMs: number) => call('POST', 'latency', { latencyMs }),
    reset: () => call('POST', 'reset'),
    requests: () => call<RecordedRequest[]>('GET', 'requests'),
  };
}

export type FakeLlmControl = ReturnType<typeof fakeLlmControl>;
