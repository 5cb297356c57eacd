import { researchEvidenceAdded } from '@vrs/contracts';
import { recordOutboxEvent } from '@vrs/bus';
import { newId, type RequestContext } from '@vrs/kit';
import type { AnnounceEvidence } from '../repo/evidence-repo';

/**
 * Records `research.evidence.added` for the stored items in their own transaction, so items are
 * never stored without the event that makes the indexer take them (ADR 0030); the caller then tells
 * the outbox relay to publish it. The event names the request that added the items.
 */
export const announceEvidenceAdded =
  (accountId: string, projectId: string, request: RequestContext): AnnounceEvidence =>
  (tx, docs) =>
    recordOutboxEvent(tx, researchEvidenceAdded, { accountId, projectId, evidenceIds: docs.map((doc) => doc._id) }, newId('evt'), request);
