import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '@vrs/store';

/**
 * `store` as a service a round trip away sees it (MongoDB in production): every collection call waits
 * `roundTripMs` first, and there is no write stamp, so no read is answered from memory. Only the
 * collection calls a service makes outside transactions wait.
 */
export function storeAway(store: Store, roundTripMs: number): Store {
  const collections = new Map<string, unknown>();
  const away = (collection: object) =>
    new Proxy(collection, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          await sleep(roundTripMs);
          return value.apply(target, args);
        };
      },
    });
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'writeStamp') return () => undefined;
      if (key === 'collection')
        return (name: string) => {
          if (!collections.has(name)) collections.set(name, away(target.collection(name)));
          return collections.get(name);
        };
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
