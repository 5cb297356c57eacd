import { inSpan } from '@vrs/kit';
import type { Store } from './port';

/**
 * `store` with a client span per transaction, the store's batch of operations committed together
 * (ADR 0102), under the trace context its caller names (ADR 0117); a transaction named in no trace
 * (billing's, a monitor's check) has none, rather than a trace of one span. Used only with tracing
 * on; single operations are left to the spans around them.
 */
export function tracedStore(store: Store, service: string): Store {
  const attributes = {
    'db.system.name': store.kind === 'mongo' ? 'mongodb' : 'sqlite',
    'db.namespace': service,
    'db.operation.name': 'transaction',
  };
  return {
    kind: store.kind,
    collection: (name) => store.collection(name),
    withTransaction: (work, trace) =>
      trace
        ? inSpan(`transaction ${service}`, { kind: 'client', attributes, parent: trace }, () => store.withTransaction(work))
        : store.withTransaction(work),
    writeStamp: () => store.writeStamp(),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
