import type { z } from 'zod';
import type { CreditHold, ImportInclude, ImportSource, JobStatus, jobErrorSchema, jobVideoSchema } from '@vrs/contracts';
import { deleteInBatches, findPage, type PageRequest, type Store, type StoreScope } from '@vrs/store';

export type JobVideo = z.infer<typeof jobVideoSchema>;
export type JobError = z.infer<typeof jobErrorSchema>;

export interface JobDoc {
  _id: string;
  accountId: string;
  projectId: string;
  type: 'import';
  /** `queued`: the name of `pending` in jobs saved before ADR 0092, read as `pending`. */
  status: JobStatus | 'queued';
  source: ImportSource;
  include: ImportInclude;
  /** The videos the source resolved to, fixed once so a resumed job works on the same list. */
  videoIds?: string[];
  progress: { done: number; total: number };
  /** One entry per handled video; what a resumed job skips. */
  videos: JobVideo[];
  warnings: string[];
  errors: JobError[];
  /** Credits the gateway held for this job, settled by the job when it ends (ADR 0019). */
  credits?: CreditHold;
  createdAt: string;
  updatedAt: string;
}

/** States a job can still leave; the others are final. */
export const activeJobStatuses: JobDoc['status'][] = ['pending', 'queued', 'running'];

export function createJobsRepo(store: Store) {
  const jobs = store.collection<JobDoc>('jobs');
  const now = () => new Date().toISOString();

  return {
    /** Jobs in `status` (the metrics' jobs by status). */
    countWithStatus: (status: JobDoc['status']) => jobs.countDocuments({ status }),

    ensureIndexes: () =>
      jobs.createIndexes([
        { key: { accountId: 1, createdAt: -1 }, name: 'account_newest_first' },
        { key: { projectId: 1, createdAt: -1, _id: -1 }, name: 'project_newest_first' },
        // Counted by status for the metrics at each scrape.
        { key: { status: 1 }, name: 'status' },
      ]),

    /** Through `tx` when given, so the job commits with what else that transaction writes (its outbox event). */
    async create(
      fields: Pick<JobDoc, '_id' | 'accountId' | 'projectId' | 'source' | 'include' | 'credits'>,
      tx?: StoreScope,
    ): Promise<JobDoc> {
      const createdAt = now();
      const job: JobDoc = {
        ...fields,
        type: 'import',
        status: 'pending',
        progress: { done: 0, total: 0 },
        videos: [],
        warnings: [],
        errors: [],
        createdAt,
        updatedAt: createdAt,
      };
      await (tx ? tx.collection<JobDoc>('jobs') : jobs).insertOne(job);
      return job;
    },

    /** Found only for its owner: another account's job and an unknown one look the same. */
    findOwned: (accountId: string, jobId: string) => jobs.findOne({ _id: jobId, accountId }),

    findById: (jobId: string) => jobs.findOne({ _id: jobId }),

    /** A page of the jobs of one of the account's projects, newest first (ADR 0020). */
    pageOfProject: (accountId: string, projectId: string, page: PageRequest) => findPage(jobs, 'jobs', { accountId, projectId }, page),

    /** The credits still held by the project's queued and running jobs. */
    async unsettledHoldsOfProject(projectId: string): Promise<CreditHold[]> {
      const active = await jobs.find({ projectId, status: { $in: activeJobStatuses } }, { projection: { credits: 1 } });
      return active.flatMap((job) => (job.credits ? [job.credits] : []));
    },

    /** Every job of a deleted account, whatever its project (ADR 0033). */
    deleteAllOfAccount: (accountId: string): Promise<number> => deleteInBatches(jobs, { accountId }),

    /** Removes every job of the project; a running one stops before its next video (it finds no job). */
    async deleteAllOfProject(projectId: string): Promise<number> {
      return (await jobs.deleteMany({ projectId })).deletedCount;
    },

    /**
     * Fixes the job's video list and marks it running, unless a previous run already fixed one (a
     * resumed job keeps its list, even if the playlist or search would now answer differently).
     */
    async start(jobId: string, videoIds: string[], warnings: string[]): Promise<void> {
      await jobs.updateOne(
        { _id: jobId, status: { $in: activeJobStatuses }, videoIds: { $exists: false } },
        {
          $set: { status: 'running', videoIds, 'progress.total': videoIds.length, updatedAt: now() },
          $push: { warnings: { $each: warnings } },
        },
      );
    },

    /** Records one handled video, once: the filter refuses a video already recorded. */
    async recordVideo(jobId: string, video: JobVideo, outcome: { warnings: string[]; errors: JobError[] }): Promise<void> {
      await jobs.updateOne(
        { _id: jobId, 'videos.videoId': { $ne: video.videoId } },
        {
          $push: { videos: video, warnings: { $each: outcome.warnings }, errors: { $each: outcome.errors } },
          $inc: { 'progress.done': 1 },
          $set: { updatedAt: now() },
        },
      );
    },

    /** Moves a running or queued job to a final state; a job cancelled meanwhile stays cancelled. */
    async finish(jobId: string, status: 'completed' | 'failed', errors: JobError[] = []): Promise<void> {
      await jobs.updateOne(
        { _id: jobId, status: { $in: activeJobStatuses } },
        { $set: { status, updatedAt: now() }, $push: { errors: { $each: errors } } },
      );
    },

    /** True when the job was queued or running and is now cancelled. */
    async cancel(accountId: string, jobId: string): Promise<boolean> {
      const result = await jobs.updateOne(
        { _id: jobId, accountId, status: { $in: activeJobStatuses } },
        { $set: { status: 'cancelled', updatedAt: now() } },
      );
      return result.modifiedCount === 1;
    },
  };
}

export type JobsRepo = ReturnType<typeof createJobsRepo>;
