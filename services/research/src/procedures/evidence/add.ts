import { addEvidenceInputSchema, type StoredEvidence } from '@vrs/contracts';
import { AppError, procedure } from '@vrs/kit';
import type { EvidenceInputItem } from '../../repo/evidence-repo';
import type { ResearchDeps } from '../../research-deps';
import { announceEvidenceAdded } from '../../search/announce-evidence-added';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toStoredEvidence } from './to-stored-evidence';

/**
 * Two items of one request with the same sourceKey would race for one document, and which one wins
 * would be arbitrary, so the request is refused, naming every repeated item.
 */
function rejectRepeatedSourceKeys(items: EvidenceInputItem[]): void {
  const firstIndexByKey = new Map<string, number>();
  const issues: { path: string; message: string; code: string }[] = [];
  items.forEach(({ sourceKey }, index) => {
    if (sourceKey === undefined) return;
    const first = firstIndexByKey.get(sourceKey);
    if (first === undefined) firstIndexByKey.set(sourceKey, index);
    else
      issues.push({ path: `items.${index}.sourceKey`, message: `repeats the sourceKey of items.${first}`, code: 'duplicate_source_key' });
  });
  if (issues.length > 0) {
    throw new AppError('VALIDATION_FAILED', `A sourceKey may appear only once per request: ${issues.map((i) => i.path).join(', ')}.`, {
      issues,
    });
  }
}

/**
 * Stores the items and, in the same transaction, their announcement; they become searchable once the
 * indexer has handled the event (ADR 0003), typically within milliseconds.
 */
export const addEvidence = ({ projects, evidence, outbox }: ResearchDeps) =>
  procedure.input(addEvidenceInputSchema).mutation(async ({ input, ctx }): Promise<{ items: StoredEvidence[] }> => {
    rejectRepeatedSourceKeys(input.items);
    const project = await requireOwnedProject(projects, input.accountId, input.projectId);
    const docs = await evidence.add(project._id, input.items, announceEvidenceAdded(input.accountId, project._id, ctx), ctx.trace);
    outbox.notify();
    return { items: docs.map(toStoredEvidence) };
  });
