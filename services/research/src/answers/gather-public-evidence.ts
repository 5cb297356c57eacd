import { createHash } from 'node:crypto';
import type { Evidence } from '@vrs/contracts';
import { chunkTranscript } from '../imports/transcript-chunks';
import { videoSourceKey } from '../imports/import-video';
import type { IndexableEvidence } from '../repo/evidence-repo';
import type { ProviderClient } from '../provider-client';
import { rankDocuments } from '@vrs/search';
import { toEvidence, toSearchDocument } from '../search/evidence-search';

/** Search results whose titles are evidence, and how many of the best have their transcripts read. */
const searchResultsUsed = 10;
const transcriptsRead = 3;

/**
 * Public evidence is not stored in a project, so its id is derived from what it names: the same
 * unit gets the same id in every answer (`ev_` like stored evidence, so clients treat both alike).
 */
export const publicEvidenceId = (sourceKey: string) => `ev_${createHash('sha256').update(sourceKey).digest('hex').slice(0, 32)}`;

function item(videoId: string, sourceKey: string, text: string, startMs?: number): IndexableEvidence {
  return {
    _id: publicEvidenceId(sourceKey),
    text,
    sourceKey,
    entityId: videoId,
    provider: 'youtube',
    ...(startMs === undefined ? {} : { startMs }),
  };
}

/**
 * Evidence for a question from YouTube, through the provider: a search, the titles of its top
 * results, and transcript chunks of the best few (a video without a transcript just adds none).
 * The items are ranked against the question with the same BM25 as project search.
 */
export async function gatherPublicEvidence(
  provider: ProviderClient,
  question: string,
  limit: number,
): Promise<{ evidence: Evidence[]; warnings: string[] }> {
  const { result } = await provider.videos.search.query({ q: question.slice(0, 200) });
  const videos = result.videos.slice(0, searchResultsUsed);
  const warnings = [...result.meta.warnings];
  const items = videos.map((video) => item(video.id, videoSourceKey(video.id, 'metadata'), `${video.title} (${video.channel.name})`));
  const transcripts = await Promise.all(
    videos.slice(0, transcriptsRead).map(({ id: videoId }) =>
      provider.transcripts.get.query({ videoId, detail: 'segments' }).then(
        ({ result }) => ({ videoId, segments: result.segments ?? [] }),
        () => ({ videoId, segments: undefined }),
      ),
    ),
  );
  for (const { videoId, segments } of transcripts) {
    if (segments === undefined) {
      warnings.push(`${videoId}: transcript unavailable, only its title was used.`);
      continue;
    }
    for (const chunk of chunkTranscript(segments)) {
      items.push(item(videoId, videoSourceKey(videoId, `transcript:${chunk.startMs}`), chunk.text, chunk.startMs));
    }
  }
  return { evidence: toEvidence(rankDocuments(items.map(toSearchDocument), question, limit)), warnings };
}
