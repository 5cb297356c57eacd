import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { billingAccountDeleted, type EventData, type EventEnvelope, type PlanOperation } from '@vrs/contracts';
import { createLogger } from '@vrs/kit';
import { openStore, type Store } from '@vrs/store';
import { createPlansRepo } from '../repo/plans-repo';
import { createDeleteAccountDataHandler } from './delete-account-data';
import { eventRequestContext } from '@vrs/bus';

function eventOf(data: EventData<typeof billingAccountDeleted>): EventEnvelope<EventData<typeof billingAccountDeleted>> {
  return { id: randomUUID(), type: billingAccountDeleted.type, occurredAt: new Date().toISOString(), data };
}

describe('trends: deleting an account', () => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore({ service: 'trends', dataDir: makeTempDir('trends-deletion-') });
  });
  afterEach(() => store.close());

  it("removes the account's plans, and only those, however often the event comes", async () => {
    const plans = createPlansRepo(store);
    await plans.ensureIndexes();
    const plan = (query: string) => ({ id: randomUUID(), query, createdAt: new Date().toISOString() }) as unknown as PlanOperation;
    for (let n = 0; n < 5; n++) await plans.save('acct_deleted', plan(`topic ${n}`));
    await plans.save('acct_kept', plan('kept topic'));
    const handle = createDeleteAccountDataHandler({ plans, logger: createLogger('trends-deletion-test') });

    const event = eventOf({ accountId: 'acct_deleted', deletedAt: new Date().toISOString() });
    await handle(event, eventRequestContext(event));
    await handle(event, eventRequestContext(event));

    const collection = store.collection('plans');
    expect(await collection.countDocuments({ accountId: 'acct_deleted' })).toBe(0);
    expect(await collection.countDocuments({ accountId: 'acct_kept' })).toBe(1);
  });
});
