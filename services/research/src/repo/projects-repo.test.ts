import { openStore, type Store } from '@vrs/store';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { createProjectsRepo } from './projects-repo';

describe('projects repo: an owned project read again while the store has had no write', () => {
  let store: Store;
  let finds: MockInstance;

  beforeEach(async () => {
    store = await openStore({ service: 'research', dataDir: makeTempDir('research-projects-') });
    // Every collection of the store shares one class: its findOne counts the reads that reach the store.
    finds = vi.spyOn(Object.getPrototypeOf(store.collection('projects')), 'findOne');
  });

  afterEach(async () => {
    finds.mockRestore();
    await store.close();
  });

  it('answers from the last read, frozen, until any write, and never another account', async () => {
    const repo = createProjectsRepo(store);
    const project = await repo.create('acc-1', 'first');
    const reads = finds.mock.calls.length;

    const first = await repo.findOwned('acc-1', project._id);
    const again = await repo.findOwned('acc-1', project._id);
    expect(finds.mock.calls.length).toBe(reads + 1);
    expect(again).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(await repo.findOwned('acc-2', project._id)).toBeNull();

    await repo.rename('acc-1', project._id, 'renamed');
    expect((await repo.findOwned('acc-1', project._id))?.name).toBe('renamed');
    expect(finds.mock.calls.length).toBe(reads + 3);
  });
});
