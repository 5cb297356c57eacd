import { createExportInputSchema, researchExportRequested, type Export } from '@vrs/contracts';
import { procedure } from '@vrs/kit';
import { runIdempotent } from '../../idempotency/run-idempotent';
import type { ResearchDeps } from '../../research-deps';
import { requireOwnedProject } from '../projects/require-owned-project';
import { toExport } from './to-export';

/**
 * Records a pending export and announces it; the exporter (a durable consumer) writes the file and
 * settles the credits the gateway held. Idempotency-Key aware.
 */
export const createExport = ({ projects, exports, idempotency, bus }: ResearchDeps) =>
  procedure.input(createExportInputSchema).mutation(async ({ input }): Promise<{ export: Export; replayed: boolean }> => {
    const { accountId, projectId, format, idempotencyKey, credits } = input;
    const project = await requireOwnedProject(projects, accountId, projectId);
    const { result, replayed } = await runIdempotent(
      idempotency,
      { accountId, operation: 'createExport', key: idempotencyKey, request: { projectId, format } },
      async () => {
        const record = await exports.create({ accountId, projectId: project._id, projectName: project.name, format, credits });
        await bus.publish(researchExportRequested, { accountId, exportId: record._id }, { eventId: record._id });
        return toExport(record);
      },
    );
    return { export: result, replayed };
  });
