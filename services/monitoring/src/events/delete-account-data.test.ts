import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@vrs/testing/temp-dir';
import { billingAccountDeleted, type EventData, type EventEnvelope } from '@vrs/contracts';
import { createLogger } from '@vrs/kit';
import { openStore, type Store } from '@vrs/store';
import { createMonitoringRepos } from '../repo';
import { createDeleteAccountDataHandler } from './delete-account-data';
import { eventRequestContext } from '@vrs/bus';

const collections = ['monitors', 'checks', 'notifications', 'webhooks', 'webhook_deliveries', 'digest_preferences', 'outbox'];
/** Documents as stored; the handler deletes by owner, whatever else they hold. */
type RawDoc = { _id: string } & Record<string, unknown>;

function eventOf(data: EventData<typeof billingAccountDeleted>): EventEnvelope<EventData<typeof billingAccountDeleted>> {
  return { id: randomUUID(), type: billingAccountDeleted.type, occurredAt: new Date().toISOString(), data };
}

describe('monitoring: deleting an account', () => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore({ service: 'monitoring', dataDir: makeTempDir('monitoring-deletion-') });
  });
  afterEach(() => store.close());

  async function seed(accountId: string) {
    const at = new Date().toISOString();
    const monitorId = `mon_${randomUUID()}`;
    const webhookId = `whk_${randomUUID()}`;
    const raw = (name: string) => store.collection<RawDoc>(name);
    await raw('monitors').insertOne({ _id: monitorId, accountId, query: { q: 'cold brew' }, enabled: true, nextCheckAt: 0, createdAt: at });
    // Many checks: deleted a batch at a time.
    await raw('checks').insertMany(
      Array.from({ length: 450 }, (_, n) => ({ _id: `chk_${randomUUID()}`, accountId, monitorId, outcome: 'unchanged', n, createdAt: at })),
    );
    await raw('notifications').insertOne({
      _id: `ntf_${randomUUID()}`,
      accountId,
      monitorId,
      kind: 'new_videos',
      read: false,
      createdAt: at,
    });
    await raw('webhooks').insertOne({
      _id: webhookId,
      accountId,
      url: 'https://example.test/hook',
      secret: 'whsec_x',
      enabled: true,
      createdAt: at,
    });
    await raw('webhook_deliveries').insertOne({ _id: `dlv_${randomUUID()}`, accountId, webhookId, status: 'pending', createdAt: at });
    await raw('digest_preferences').insertOne({ _id: accountId, frequency: 'daily', nextDigestAt: 0 });
    await raw('outbox').insertOne({
      _id: `ntf_${randomUUID()}`,
      type: 'monitoring.notification.created',
      data: { accountId },
      status: 'sent',
    });
  }

  async function mentions(accountId: string): Promise<Record<string, number>> {
    const found: Record<string, number> = {};
    for (const name of collections) {
      const count = (await store.collection(name).find({})).filter((doc) => JSON.stringify(doc).includes(accountId)).length;
      if (count > 0) found[name] = count;
    }
    return found;
  }

  it('removes monitors, checks, notifications, webhooks, deliveries, digest preferences and outbox rows of that account only, twice over', async () => {
    await seed('acct_deleted');
    await seed('acct_kept');
    const expected = { monitors: 1, checks: 450, notifications: 1, webhooks: 1, webhook_deliveries: 1, digest_preferences: 1, outbox: 1 };
    expect(await mentions('acct_deleted')).toEqual(expected);
    const handle = createDeleteAccountDataHandler({
      ...createMonitoringRepos(store),
      store,
      logger: createLogger('monitoring-deletion-test'),
    });

    const event = eventOf({ accountId: 'acct_deleted', deletedAt: new Date().toISOString() });
    await handle(event, eventRequestContext(event));
    await handle(event, eventRequestContext(event));

    expect(await mentions('acct_deleted')).toEqual({});
    expect(await mentions('acct_kept')).toEqual(expected);
  });
});
