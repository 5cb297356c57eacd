import { constants } from 'node:fs';
import { access, mkdir, readdir } from 'node:fs/promises';
import type { AnyObject } from 'mingo/types';
import type { Collection, Store, StoreDocument } from '../port';
import { lockDirectory } from './directory-lock';
import { EmbeddedCollection } from './embedded-collection';

export interface EmbeddedStoreOptions {
  /** Log size that triggers compaction (it also waits for the log to outgrow the snapshot). */
  compactAfterBytes?: number;
}

const DEFAULT_COMPACT_AFTER_BYTES = 16 * 1024 * 1024;
/** Names become file names. */
const COLLECTION_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
const COLLECTION_FILE = /^(.+)\.(log|snapshot)$/;

/**
 * The in-process store: every collection in memory, persisted under `dir` (one snapshot + log
 * pair per collection). One process owns a directory at a time: `LOCK` names it, and a second
 * opener gets StoreLockedError instead of two processes appending to the same logs.
 */
export async function openEmbeddedStore(dir: string, options: EmbeddedStoreOptions = {}): Promise<Store> {
  await mkdir(dir, { recursive: true });
  const unlock = await lockDirectory(dir);
  try {
    const store = new EmbeddedStore(dir, options.compactAfterBytes ?? DEFAULT_COMPACT_AFTER_BYTES, unlock);
    const names = new Set<string>();
    for (const file of await readdir(dir)) {
      const match = COLLECTION_FILE.exec(file);
      if (match) names.add(match[1]);
    }
    await Promise.all(Array.from(names, (name) => store.load(name)));
    return store;
  } catch (error) {
    await unlock();
    throw error;
  }
}

class EmbeddedStore implements Store {
  readonly kind = 'embedded';
  readonly #dir: string;
  readonly #compactAfterBytes: number;
  readonly #collections = new Map<string, EmbeddedCollection<StoreDocument>>();
  readonly #unlock: () => Promise<void>;
  #closed = false;

  constructor(dir: string, compactAfterBytes: number, unlock: () => Promise<void>) {
    this.#dir = dir;
    this.#compactAfterBytes = compactAfterBytes;
    this.#unlock = unlock;
  }

  load(name: string): Promise<void> {
    return this.#get(name).load();
  }

  collection<T extends StoreDocument>(name: string): Collection<T> {
    return this.#get(name) as unknown as Collection<T>;
  }

  async ping(): Promise<void> {
    if (this.#closed) throw new Error('the embedded store is closed');
    await access(this.#dir, constants.W_OK);
    for (const [name, collection] of this.#collections) {
      if (collection.failure !== undefined) {
        throw new Error(`embedded collection ${name} stopped accepting writes`, { cause: collection.failure });
      }
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(Array.from(this.#collections.values(), (collection) => collection.close()));
    await this.#unlock();
  }

  #get(name: string): EmbeddedCollection<StoreDocument> {
    let collection = this.#collections.get(name);
    if (!collection) {
      if (this.#closed) throw new Error('the embedded store is closed');
      if (!COLLECTION_NAME.test(name)) throw new TypeError(`invalid collection name: ${JSON.stringify(name)}`);
      // $lookup and friends read other collections as copies, so pipelines cannot edit them.
      const resolve = (other: string) => this.#get(other).copies() as unknown as AnyObject[];
      collection = new EmbeddedCollection(this.#dir, name, { compactAfterBytes: this.#compactAfterBytes }, resolve);
      this.#collections.set(name, collection);
    }
    return collection;
  }
}
