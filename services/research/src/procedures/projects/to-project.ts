import type { Project } from '@vrs/contracts';
import type { ProjectDoc } from '../../repo/projects-repo';

/** The public shape: index bookkeeping and the owner stay inside the service. */
export function toProject(doc: ProjectDoc): Project {
  return { id: doc._id, name: doc.name, createdAt: doc.createdAt, updatedAt: doc.updatedAt ?? doc.createdAt };
}
