import type { StoredEvidence } from '@vrs/contracts';
import type { EvidenceDoc } from '../../repo/evidence-repo';

/** The public shape: index bookkeeping stays inside the service. */
export function toStoredEvidence({ _id, indexedVersion: _indexedVersion, ...fields }: EvidenceDoc): StoredEvidence {
  return { id: _id, ...fields };
}
