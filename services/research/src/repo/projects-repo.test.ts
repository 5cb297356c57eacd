import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '@vrs/store';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { createProjectsRepo } from './projects-repo';

describe('projects repo: an owned project read again while the store has had no write', () => {
  let dataDir: string;
  let store: Store;
  let finds: MockInstance;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'research-projects-'));
    store = await openStore({ service: 'research', dataDir });
    // Every collection of the store shares one class: its findOne counts the reads that reach the store.
    finds = vi.spyOn(Object.getPrototypeOf(store.collection('projects')), 'findOne');
  });

  afterEach(async () => {
    finds.mockRestore();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
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
