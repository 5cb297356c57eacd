import { inSpan } from '@vrs/kit';
import type { Store } from './port';

/**
 * `store` with a client span per transaction, the store's batch of operations committed together
 * (ADR 0102). Used only with tracing on; single operations are left to the spans around them.
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
    withTransaction: (work) => inSpan(`transaction ${service}`, { kind: 'client', attributes }, () => store.withTransaction(work)),
    writeStamp: () => store.writeStamp(),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
