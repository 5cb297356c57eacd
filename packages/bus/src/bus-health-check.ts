import type { EventBus } from './event-bus';

/** The bus as a dependency check: rejects when it reports itself unhealthy. */
export function busHealthCheck(bus: EventBus): () => Promise<void> {
  return async () => {
    const health = await bus.health();
    if (!health.ok) throw new Error(health.detail ?? 'event bus unavailable');
  };
}
