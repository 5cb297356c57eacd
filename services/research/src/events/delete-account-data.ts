import type { billingAccountDeleted } from '@vrs/contracts';
import { outboxCollection, type EventHandler, type OutboxDoc } from '@vrs/bus';
import type { Logger } from '@vrs/kit';
import { deleteInBatches, type Store } from '@vrs/store';
import type { ResearchDeps } from '../research-deps';

/** Projects deleted per store read. */
const projectBatch = 50;

export type DeleteAccountDataDeps = Pick<
  ResearchDeps,
  'projects' | 'evidence' | 'search' | 'jobs' | 'exports' | 'comparisons' | 'operations' | 'idempotency'
> & { store: Store; logger: Logger };

/**
 * Research's part of an account's deletion (ADR 0033): every project with all it holds, then the
 * account's comparisons, answers, reports, idempotency records and outbox rows. Running work stops on
 * its own (its project is gone); held credits are billing's to release. Each step deletes in batches
 * and finds nothing the second time, so a redelivery is harmless.
 */
export function createDeleteAccountDataHandler(deps: DeleteAccountDataDeps): EventHandler<typeof billingAccountDeleted> {
  const { projects, evidence, search, jobs, exports, logger } = deps;
  return async ({ data: { accountId } }) => {
    let projectCount = 0;
    for (;;) {
      const ids = await projects.idsOfAccount(accountId, projectBatch);
      for (const projectId of ids) {
        await jobs.deleteAllOfProject(projectId);
        await exports.deleteAllOfProject(projectId);
        await evidence.deleteAll(projectId);
        await projects.deleteOwned(accountId, projectId);
        // Again after the project: an import running meanwhile may have written an item.
        await evidence.deleteAll(projectId);
        await search.forget(projectId);
        projectCount++;
      }
      if (ids.length < projectBatch) break;
    }
    const removed = {
      projects: projectCount,
      jobs: await jobs.deleteAllOfAccount(accountId),
      exports: await exports.deleteAllOfAccount(accountId),
      comparisons: await deps.comparisons.deleteAllOfAccount(accountId),
      operations: await deps.operations.deleteAllOfAccount(accountId),
      idempotencyKeys: await deps.idempotency.deleteAllOfAccount(accountId),
      outbox: await deleteInBatches(deps.store.collection<OutboxDoc>(outboxCollection), { 'data.accountId': accountId }),
    };
    logger.info({ accountId, ...removed }, "deleted account's research data removed");
  };
}
