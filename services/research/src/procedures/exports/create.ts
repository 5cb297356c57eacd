import { createExportInputSchema, researchExportRequested, type Export } from '@vrs/contracts';
import { recordOutboxEvent } from '@vrs/bus';
import { procedure } from '@vrs/kit';
import { runIdempotent } from '../../idempotency/run-idempotent';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toExport } from './to-export';

/** Records a pending export and its outbox event; the exporter writes the file and settles the held credits. Idempotency-Key aware. */
export const createExport = ({ store, projects, exports, idempotency, outbox }: ResearchDeps) =>
  procedure.input(createExportInputSchema).mutation(async ({ input, ctx }): Promise<{ export: Export; replayed: boolean }> => {
    const { accountId, projectId, format, idempotencyKey, credits } = input;
    const project = await requireOwnedProject(projects, accountId, projectId);
    const { result, replayed } = await runIdempotent(
      idempotency,
      { accountId, operation: 'createExport', key: idempotencyKey, request: { projectId, format } },
      async () => {
        // The export and its event commit together: an export is never left pending with nobody told to write it.
        const record = await store.withTransaction(async (tx) => {
          const created = await exports.create({ accountId, projectId: project._id, projectName: project.name, format, credits }, tx);
          await recordOutboxEvent(tx, researchExportRequested, { accountId, exportId: created._id }, created._id, ctx);
          return created;
        }, ctx.trace);
        outbox.notify();
        return toExport(record);
      },
    );
    return { export: result, replayed };
  });
