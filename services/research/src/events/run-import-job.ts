import type { researchImportRequested } from '@vrs/contracts';
import type { EventHandler, OutboxRelay } from '@vrs/bus';
import { forRequest, requestLogFields, type Logger, type RequestContext } from '@vrs/kit';
import type { BillingClient } from '../billing-client';
import { importVideo } from '../imports/import-video';
import { settleJobCredits } from '../credits/settle-held-credits';
import { resolveVideos } from '../imports/resolve-videos';
import type { EvidenceRepo } from '../repo/evidence-repo';
import { activeJobStatuses, type JobsRepo } from '../repo/jobs-repo';
import type { ProjectsRepo } from '../repo/projects-repo';
import { providerFailureOf, type ProviderClient } from '../provider-client';

export interface RunImportJobDeps {
  jobs: JobsRepo;
  projects: ProjectsRepo;
  evidence: EvidenceRepo;
  /** Told when an imported video's evidence event is recorded, so it is published at once. */
  outbox: Pick<OutboxRelay, 'notify'>;
  provider: ProviderClient;
  /** Settles the credits held for a job once it ends. */
  billing: BillingClient;
  logger: Logger;
  /** True once the service is stopping: the job is handed back between videos instead of holding up the shutdown. */
  stopping: () => boolean;
  /** Videos of the job imported at once (RESEARCH_IMPORT_VIDEO_CONCURRENCY). */
  videosAtOnce: number;
}

/**
 * Runs an import job, or resumes it: the video list is fixed on the first run and each handled video
 * is recorded on the job, so a redelivery after a crash imports only the rest (a video interrupted
 * mid-import updates its evidence in place, by sourceKey). Cancellation is read before each video.
 * Up to `videosAtOnce` videos go side by side, each recorded by a conditional append.
 */
export function createRunImportJobHandler(deps: RunImportJobDeps): EventHandler<typeof researchImportRequested> {
  return async (event, context) => {
    const scoped = forContext(deps, context);
    const { jobs, logger } = scoped;
    await runImportJob(scoped, context)(event.data.jobId);
    // Whichever way the job ended (here, by a cancel, or on an earlier delivery whose settle was lost).
    const ended = await jobs.findById(event.data.jobId);
    if (!ended) return;
    const outcome = await settleJobCredits(scoped.billing, ended);
    if (outcome)
      logger.info({ jobId: ended._id, credits: outcome, reservationId: ended.credits?.reservationId }, 'import job credits settled');
  };
}

/** The job's clients and log lines carry the id of the request that created it. */
function forContext(deps: RunImportJobDeps, context: RequestContext): RunImportJobDeps {
  return {
    ...deps,
    provider: forRequest(deps.provider, context),
    billing: forRequest(deps.billing, context),
    logger: deps.logger.child(requestLogFields(context)),
  };
}

function runImportJob(deps: RunImportJobDeps, request: RequestContext) {
  const { jobs, projects, logger } = deps;
  return async (jobId: string) => {
    let job = await jobs.findById(jobId);
    if (!job) {
      logger.warn({ jobId }, 'import requested for a job this store does not have; acknowledged');
      return;
    }
    if (!activeJobStatuses.includes(job.status)) return;
    if (!(await projects.findById(job.projectId))) {
      await jobs.finish(jobId, 'failed', [{ code: 'PROJECT_NOT_FOUND', message: 'The project no longer exists.' }]);
      return;
    }
    if (!job.videoIds) {
      try {
        const resolved = await resolveVideos(deps.provider, job.source);
        await jobs.start(jobId, resolved.videoIds, resolved.warnings);
      } catch (error) {
        const failure = providerFailureOf(error);
        logger.warn({ jobId, code: failure.code }, 'import source could not be read; job failed');
        await jobs.finish(jobId, 'failed', [failure]);
        return;
      }
      job = await jobs.findById(jobId);
      if (!job) {
        logger.warn({ jobId }, 'import job gone while its source was read; acknowledged');
        return;
      }
      // Cancelled while its source was being read: the list was never fixed, and nothing is imported.
      if (!job.videoIds) return;
    }
    const target = { accountId: job.accountId, projectId: job.projectId, request };
    const include = job.include;
    const pending = job.videoIds.filter((videoId) => !job.videos.some((video) => video.videoId === videoId));
    // Set by the first lane that sees the job cancelled or the service stopping: the others take no new video.
    let halted: 'cancelled' | 'stopping' | undefined;
    const lane = async () => {
      for (let videoId = pending.shift(); videoId !== undefined && !halted; videoId = pending.shift()) {
        // Unacked, the event comes back (to another replica, or this one restarted), which resumes here.
        if (deps.stopping()) {
          halted = 'stopping';
          return;
        }
        // Re-read before each video: a cancel lands between videos, never in the middle of one.
        const current = await jobs.findById(jobId);
        if (!current || !activeJobStatuses.includes(current.status)) {
          halted = 'cancelled';
          return;
        }
        const outcome = await importVideo(deps, target, videoId, include);
        await jobs.recordVideo(
          jobId,
          { videoId, status: outcome.error ? 'failed' : 'imported', evidenceCount: outcome.evidenceCount },
          { warnings: outcome.warnings, errors: outcome.error ? [outcome.error] : [] },
        );
        if (outcome.error) logger.warn({ jobId, videoId, code: outcome.error.code }, 'video not imported');
        else logger.info({ jobId, videoId, evidence: outcome.evidenceCount }, 'video imported');
      }
    };
    // Every lane is awaited before the job is handed back or finished, so no import outlives its delivery.
    const lanes = await Promise.allSettled(Array.from({ length: Math.min(deps.videosAtOnce, pending.length) }, lane));
    const failedLane = lanes.find((outcome) => outcome.status === 'rejected');
    if (failedLane) throw failedLane.reason;
    if (halted === 'stopping') throw new Error(`service stopping: import job ${jobId} handed back before its remaining videos`);
    if (halted === 'cancelled') return;
    const finished = await jobs.findById(jobId);
    // Deleted with its project meanwhile: nothing is left to finish.
    if (!finished) return;
    const allFailed = finished.videos.length > 0 && finished.videos.every((video) => video.status === 'failed');
    await jobs.finish(jobId, allFailed ? 'failed' : 'completed');
    logger.info({ jobId, videos: finished.videos.length }, 'import job finished');
  };
}
