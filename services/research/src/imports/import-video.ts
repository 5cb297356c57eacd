import type { ImportInclude, Video } from '@vrs/contracts';
import type { OutboxRelay } from '@vrs/bus';
import type { RequestContext } from '@vrs/kit';
import type { EvidenceRepo, ImportedEvidenceItem } from '../repo/evidence-repo';
import type { ProjectsRepo } from '../repo/projects-repo';
import { announceEvidenceAdded } from '../search/announce-evidence-added';
import { resetProjectIndex } from '../search/index-project-evidence';
import type { JobError } from '../repo/jobs-repo';
import { providerFailureOf, type ProviderClient } from '../provider-client';
import { chunkDescription } from './description-chunks';
import { chunkTranscript } from './transcript-chunks';

/** Top comments taken from the first page; the rest of a thread is rarely evidence. */
const maxComments = 20;

export interface ImportVideoDeps {
  provider: ProviderClient;
  evidence: EvidenceRepo;
  projects: ProjectsRepo;
  outbox: Pick<OutboxRelay, 'notify'>;
}

export interface VideoImport {
  evidenceCount: number;
  warnings: string[];
  /** Set when the video itself could not be read: nothing was imported. */
  error?: JobError;
}

/** The unit each evidence item stands for; unique within a project, so a re-import updates in place. */
export const videoSourceKey = (
  videoId: string,
  unit: 'metadata' | `description:${number}` | `transcript:${number}` | `comment:${string}`,
) => `youtube:video:${videoId}:${unit}`;

/** What the video is and whose: the description comes apart, in chunks, without its boilerplate. */
function metadataText(video: Video): string {
  return [video.title, `Channel: ${video.channel.name}`]
    .filter((part) => part.trim())
    .join('\n')
    .slice(0, 20_000);
}

/**
 * Imports one video into a project: its metadata (title and channel, and the description's
 * evidence in chunks), transcript chunks and top comments, as the request includes them. A missing transcript or comments section is a warning, not a failure; a
 * video that cannot be read at all is the job's error for that video.
 */
export async function importVideo(
  deps: ImportVideoDeps,
  /** Where the evidence goes, and the request whose job imports it (named by its event). */
  target: { accountId: string; projectId: string; request: RequestContext },
  videoId: string,
  include: ImportInclude,
): Promise<VideoImport> {
  const { provider, evidence, outbox } = deps;
  const warnings: string[] = [];
  let video: Video;
  try {
    video = (await provider.videos.get.query({ videoId })).result;
  } catch (error) {
    return { evidenceCount: 0, warnings, error: { videoId, ...providerFailureOf(error) } };
  }
  const base = { provider: 'youtube' as const, entityId: videoId };
  const items: ImportedEvidenceItem[] = [];
  if (include.metadata) {
    items.push({ ...base, text: metadataText(video), sourceKey: videoSourceKey(videoId, 'metadata') });
    chunkDescription(video.description).forEach((text, n) => {
      items.push({ ...base, text, sourceKey: videoSourceKey(videoId, `description:${n}`) });
    });
  }
  if (include.transcript) {
    try {
      const { result } = await provider.transcripts.get.query({ videoId, detail: 'segments' });
      for (const chunk of chunkTranscript(result.segments ?? [])) {
        items.push({
          ...base,
          text: chunk.text,
          startMs: chunk.startMs,
          sourceKey: videoSourceKey(videoId, `transcript:${chunk.startMs}`),
        });
      }
    } catch (error) {
      const failure = providerFailureOf(error);
      warnings.push(`${videoId}: transcript not imported (${failure.code}): ${failure.message}`);
    }
  }
  if (include.comments) {
    try {
      const { result } = await provider.comments.getPage.query({ videoId });
      for (const comment of result.comments.slice(0, maxComments)) {
        if (comment.text.trim())
          items.push({ ...base, text: comment.text.slice(0, 20_000), sourceKey: videoSourceKey(videoId, `comment:${comment.id}`) });
      }
    } catch (error) {
      const failure = providerFailureOf(error);
      warnings.push(`${videoId}: comments not imported (${failure.code}): ${failure.message}`);
    }
  }
  if (items.length === 0) return { evidenceCount: 0, warnings };
  // Two segments starting at the same millisecond would name one unit twice; the later one wins.
  const unique = [...new Map(items.map((item) => [item.sourceKey, item])).values()];
  const docs = await evidence.add(
    target.projectId,
    unique,
    announceEvidenceAdded(target.accountId, target.projectId, target.request),
    target.request.trace,
  );
  outbox.notify();
  if (include.metadata) {
    // A description edited since the last import may now make fewer chunks: the extra ones go.
    const descriptionKeys = items.flatMap((item) => (item.sourceKey?.includes(':description:') ? [item.sourceKey] : []));
    const stale = await evidence.deleteStaleUnits(target.projectId, `youtube:video:${videoId}:description:`, descriptionKeys);
    if (stale > 0) await resetProjectIndex(deps, target.projectId);
  }
  return { evidenceCount: docs.length, warnings };
}
