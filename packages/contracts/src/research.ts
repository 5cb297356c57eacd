import { z } from 'zod';
import { evidenceSchema, projectSchema, uint } from './shapes';
import { accountIdSchema } from './billing';
import { listPage, listQuery } from './lists';
import { workStateSchema } from './vocabulary';

export const projectName = () => z.string().trim().min(1, 'name must not be blank').max(200);
export const projectIdSchema = z.string().min(1).max(100);

export const evidenceText = () => z.string().trim().min(1, 'text must not be blank').max(20_000);
export const sourceKey = () => z.string().trim().min(1).max(500);

/** One item of saved material as the caller sends it. */
export const evidenceInputItem = () =>
  z.strictObject({
    text: evidenceText(),
    sourceKey: sourceKey()
      .optional()
      .describe('Names the unit of source material; unique within the project. Posting the same sourceKey again updates that item.'),
    entityId: z.string().trim().min(1).max(200).optional(),
    startMs: uint().optional(),
  });
export const evidenceInputItemSchema = evidenceInputItem();
export const maxEvidenceItemsPerRequest = 100;

export const storedEvidenceSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    text: z.string(),
    sourceKey: z.string().optional(),
    entityId: z.string().optional(),
    startMs: uint().optional(),
    provider: z.enum(['youtube']).optional(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'StoredEvidence' });
export type StoredEvidence = z.infer<typeof storedEvidenceSchema>;

export const addEvidenceResultSchema = z.object({ items: z.array(storedEvidenceSchema) }).meta({ id: 'AddEvidenceResult' });

export const searchQuerySchema = z.string().max(500);
export const searchResultSchema = z.object({ query: z.string(), results: z.array(evidenceSchema) }).meta({ id: 'EvidenceSearchResult' });
export type SearchResult = z.infer<typeof searchResultSchema>;

export const projectListSchema = listPage(projectSchema, 'ProjectList');
export const evidenceListSchema = listPage(storedEvidenceSchema, 'EvidenceList');

/*
 * Each public operation's input (issue 38); research's procedure extends it with the account. Both are
 * strict: a misspelt internal key fails as loudly as a public one.
 */

const byAccount = { accountId: accountIdSchema };
const projectPath = { projectId: projectIdSchema };
const evidencePath = { ...projectPath, evidenceId: z.string().min(1).max(100) };

export const createProjectInput = z.strictObject({ name: projectName() });
export const listProjectsInput = listQuery().strict();
export const getProjectInput = z.strictObject(projectPath);
export const deleteProjectInput = z.strictObject(projectPath);
export const updateProjectInput = z.strictObject({ ...projectPath, name: projectName() });

export const addProjectEvidenceInput = z.strictObject({
  ...projectPath,
  items: z.array(evidenceInputItem()).min(1).max(maxEvidenceItemsPerRequest),
});
export const listProjectEvidenceInput = listQuery().extend(projectPath).strict();
export const getProjectEvidenceInput = z.strictObject(evidencePath);
export const deleteProjectEvidenceInput = z.strictObject(evidencePath);
/** A change to a saved item: each field given replaces it, `null` removes an optional one. */
export const updateProjectEvidenceInput = z.strictObject({
  ...evidencePath,
  text: evidenceText().optional(),
  entityId: z.string().trim().min(1).max(200).nullable().optional(),
  startMs: uint().nullable().optional(),
});

/* Internal procedure I/O of the research service: the gateway passes the authenticated account. */

export const createProjectInputSchema = createProjectInput.extend(byAccount);
export const listProjectsInputSchema = listProjectsInput.extend(byAccount);
/** get and delete. */
export const projectRefInputSchema = z.strictObject({ ...byAccount, ...projectPath });
export const renameProjectInputSchema = updateProjectInput.extend(byAccount);
export const listEvidenceInputSchema = listProjectEvidenceInput.extend(byAccount);
/** get and delete. */
export const evidenceRefInputSchema = z.strictObject({ ...byAccount, ...evidencePath });
export const updateEvidenceInputSchema = updateProjectEvidenceInput.extend(byAccount);
export const addEvidenceInputSchema = addProjectEvidenceInput.extend(byAccount);
/** How many results a project search answers: `limit`'s default and most. */
export const defaultEvidenceSearchLimit = 20;
export const maxEvidenceSearchLimit = 100;
/** searchPrivateEvidence's parameters: the gateway reads them from the path and query, research adds the account. */
export const searchPrivateEvidenceInput = z.strictObject({
  projectId: projectIdSchema,
  q: z.string().trim().min(1).max(500),
  limit: z.coerce
    .number<number>()
    .int()
    .min(1)
    .max(maxEvidenceSearchLimit)
    .default(defaultEvidenceSearchLimit)
    .describe(`The most results to answer, best first (default ${defaultEvidenceSearchLimit}, at most ${maxEvidenceSearchLimit}).`),
});
export const searchEvidenceInputSchema = searchPrivateEvidenceInput.extend(byAccount);

/* Imports and jobs (issue 4, ADR 0011). */

export const maxImportVideos = 50;
const importVideoId = () => z.string().trim().min(1).max(100);
const importListId = () => z.string().trim().min(1).max(200);
const importLimit = (videos: number) => z.number().int().min(1).max(maxImportVideos).default(videos);

/**
 * What an import reads: one video, an explicit list of videos, a playlist or a channel's recent
 * uploads (each video in turn), or a search query's top results. `limit` bounds the videos taken.
 */
export const importSource = () =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('video'), id: importVideoId() }),
    z.strictObject({ type: z.literal('videos'), ids: z.array(importVideoId()).min(1).max(maxImportVideos) }),
    z.strictObject({ type: z.literal('playlist'), id: importListId(), limit: importLimit(10) }),
    z.strictObject({ type: z.literal('channel'), id: importListId(), limit: importLimit(10) }),
    z.strictObject({ type: z.literal('search'), query: z.string().trim().min(1).max(200), limit: importLimit(5) }),
  ]);
export const importSourceSchema = importSource();
export type ImportSource = z.infer<typeof importSourceSchema>;

export const importInclude = () =>
  z
    .strictObject({
      metadata: z.boolean().default(true),
      transcript: z.boolean().default(true),
      comments: z.boolean().default(false).describe("The top comments of the first page in YouTube's ranking."),
    })
    .default({ metadata: true, transcript: true, comments: false });
export const importIncludeSchema = importInclude();
export type ImportInclude = z.infer<typeof importIncludeSchema>;

export const createImportInput = z.strictObject({ ...projectPath, source: importSource(), include: importInclude() });

/** The shared states (ADR 0092): a new job is `pending` (before ADR 0092 it was `queued`). */
export type JobStatus = z.infer<typeof workStateSchema>;

export const jobVideoSchema = z
  .object({
    videoId: z.string(),
    status: z.enum(['imported', 'failed']),
    evidenceCount: uint(),
  })
  .meta({ id: 'JobVideo' });

export const jobErrorSchema = z.object({ videoId: z.string().optional(), code: z.string(), message: z.string() }).meta({ id: 'JobError' });

export const jobSchema = z
  .object({
    id: z.string(),
    type: z.enum(['import']),
    projectId: z.string(),
    status: workStateSchema,
    progress: z.object({ done: uint(), total: uint() }),
    creditsHeld: uint()
      .optional()
      .describe('Credits held for the job while it is `pending` or `running`; when it ends they are charged or refunded (see the ledger).'),
    source: importSourceSchema,
    include: importIncludeSchema,
    videos: z.array(jobVideoSchema).describe('Each video handled so far, once, in the order it finished.'),
    warnings: z.array(z.string()),
    errors: z.array(jobErrorSchema),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Job' });
export type Job = z.infer<typeof jobSchema>;

/** An `Idempotency-Key` header: printable ASCII, as Stripe accepts it. */
export const idempotencyKey = () => z.string().regex(/^[\x21-\x7e]{1,255}$/, 'must be 1-255 printable ASCII characters without spaces');

/**
 * Credits held by the gateway for work that finishes later (ADR 0019): an import job or an export
 * settles them when it ends, charged if it delivered something, refunded if it delivered nothing.
 */
export const creditHoldSchema = z.object({ reservationId: z.string().min(1).max(100), amount: uint() });
export type CreditHold = z.infer<typeof creditHoldSchema>;
/** What the gateway adds to work that finishes later (an import job, an export): the account, its Idempotency-Key and hold. */
const paidWork = { ...byAccount, idempotencyKey: idempotencyKey().optional(), credits: creditHoldSchema.optional() };
export const createImportInputSchema = createImportInput.extend(paidWork);
export const getJobInput = z.strictObject({ id: z.string().min(1).max(100) });
export const cancelJobInput = z.strictObject({ id: z.string().min(1).max(100) });
export const listProjectJobsInput = listQuery().extend(projectPath).strict();
/** get and cancel: the gateway names the path's `id` a job id. */
export const jobRefInputSchema = z.strictObject({ ...byAccount, jobId: z.string().min(1).max(100) });
export const jobListSchema = listPage(jobSchema, 'JobList');
export const listJobsInputSchema = listProjectJobsInput.extend(byAccount);

/* Cited answers and evidence-first reports (issue 4, ADR 0011). */

export const questionText = () => z.string().trim().min(1, 'question must not be blank').max(1000);
export const reportPrompt = () => z.string().trim().min(1, 'prompt must not be blank').max(2000);

export const citedAnswerModeSchema = z
  .enum(['llm', 'extractive', 'insufficient_evidence'])
  .describe(
    '`llm`: written by a model from the evidence; `extractive`: no model configured, the best evidence verbatim; `insufficient_evidence`: retrieval found too little to answer.',
  );

export const citedAnswerSchema = z
  .object({
    answer: z.string().describe('Claims are marked `[n]`, n being the `index` of the citation that supports them.'),
    citations: z.array(evidenceSchema),
    operationId: z.uuid(),
    mode: citedAnswerModeSchema,
    model: z.string().optional().describe('The model that wrote the answer (the primary, or the fallback when the primary failed).'),
    warnings: z.array(z.string()).describe('Claims dropped or repaired because they cited evidence that was not given, and similar notes.'),
  })
  .meta({ id: 'CitedAnswer' });
export type CitedAnswer = z.infer<typeof citedAnswerSchema>;

export const answerOperationSchema = citedAnswerSchema
  .omit({ operationId: true })
  .extend({
    id: z.uuid(),
    kind: z.enum(['answer', 'report']),
    question: z.string().optional(),
    prompt: z.string().optional(),
    projectId: z.string().optional(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AnswerOperation' });
export type AnswerOperation = z.infer<typeof answerOperationSchema>;

export const createAnswerInput = z.strictObject({ question: questionText() });
export const createReportInput = z.strictObject({ prompt: reportPrompt(), ...projectPath });
/** Answers, reports and video plans: research and trends each read their own by the path's `id`. */
export const getOperationInput = z.strictObject({ id: z.string().min(1).max(100) });
/** Research's answers and reports and trends' plans, merged by the gateway. */
export const listOperationsInput = listQuery().strict();

export const createAnswerInputSchema = createAnswerInput.extend(byAccount);
export const createReportInputSchema = createReportInput.extend(byAccount);
export const operationRefInputSchema = z.strictObject({ ...byAccount, operationId: z.string().min(1).max(100) });
export const listOperationsInputSchema = listOperationsInput.extend(byAccount);

/* Exports (issue 4, ADR 0011). */

export const exportFormatSchema = z.enum(['json', 'csv', 'markdown']);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

export const exportSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    format: exportFormatSchema,
    status: z
      .enum(['pending', 'completed', 'failed'])
      .describe('Of the shared states (ADR 0092): `completed` once the file is written (before ADR 0092 it was `ready`).'),
    itemCount: uint().optional().describe('Evidence items in the file, once ready.'),
    sizeBytes: uint().optional().describe('Size of the file, once ready.'),
    error: z.string().optional().describe('Why the export failed.'),
    expiresAt: z.iso
      .datetime()
      .optional()
      .describe('When the file is deleted, once ready; downloading it after that answers 410 EXPORT_EXPIRED.'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Export' });
export type Export = z.infer<typeof exportSchema>;

export const createExportInput = z.strictObject({ ...projectPath, format: exportFormatSchema });
export const getExportInput = z.strictObject({ id: z.string().min(1).max(100) });
/** The file of an export: a plain route (it streams the file), whose procedure checks this. */
export const downloadExportInput = z.strictObject({ id: z.string().min(1).max(100) });
export const listExportsInput = listQuery()
  .extend({ projectId: projectIdSchema.optional().describe('Only the exports of this project.') })
  .strict();

export const createExportInputSchema = createExportInput.extend(paidWork);
export const exportRefInputSchema = z.strictObject({ ...byAccount, exportId: z.string().min(1).max(100) });
export const exportListSchema = listPage(exportSchema, 'ExportList');
export const listExportsInputSchema = listExportsInput.extend(byAccount);
export const exportChunkInputSchema = exportRefInputSchema.extend({ seq: uint() });

/* Comparisons (issue 4, ADR 0011). */

export const createComparisonInput = z.strictObject({
  type: z.enum(['video', 'channel']).describe('What `ids` name: videos, or channels (ids `UC…` or handles `@name`).'),
  ids: z
    .array(z.string().trim().min(1).max(200))
    .min(2)
    .max(5)
    .refine((ids) => new Set(ids.map(comparedIdentity)).size === ids.length, {
      message: 'ids must name different videos or channels',
      params: { code: 'DUPLICATE_IDS' },
    }),
});

/** Handles are case-insensitive (`@EEVblog` is `@eevblog`); video and channel ids are not. */
export const comparedIdentity = (id: string) => (id.startsWith('@') ? id.toLowerCase() : id);

export const comparedVideoSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    channel: z.object({ id: z.string(), name: z.string() }),
    views: uint().nullable(),
    viewsPerHour: z.number().nullable().describe('Lifetime views per hour since publication.'),
    engagementRate: z.number().nullable().describe('(likes + comments) / views.'),
    durationSeconds: uint(),
    publishDate: z.string().nullable(),
    publishAgeHours: z.number().nullable(),
  })
  .meta({ id: 'ComparedVideo' });

export const comparedChannelSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    subscriberCount: uint().nullable(),
    videoCount: uint().nullable(),
    recentUploads: z
      .object({
        sampled: uint().describe('Recent uploads the medians are taken over.'),
        medianViews: z.number().nullable(),
        medianViewsPerHour: z.number().nullable(),
        medianDurationSeconds: z.number().nullable(),
        medianPublishAgeHours: z.number().nullable().describe('From YouTube\'s display text ("3 days ago"): coarse.'),
      })
      .describe("Medians over the channel's recent uploads as its videos tab lists them (no likes there, so no engagement)."),
  })
  .meta({ id: 'ComparedChannel' });

export const comparisonSchema = z
  .object({
    id: z.string(),
    type: z.enum(['video', 'channel']),
    videos: z.array(comparedVideoSchema).optional(),
    channels: z.array(comparedChannelSchema).optional(),
    summary: citedAnswerSchema
      .pick({ answer: true, citations: true, model: true })
      .optional()
      .describe('With a model configured: a cited summary of how what the videos say differs (from their transcripts).'),
    warnings: z.array(z.string()),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Comparison' });
export type Comparison = z.infer<typeof comparisonSchema>;

export const getComparisonInput = z.strictObject({ id: z.string().min(1).max(100) });
export const listComparisonsInput = listQuery().strict();

export const createComparisonInputSchema = createComparisonInput.extend(byAccount);
export const comparisonRefInputSchema = z.strictObject({ ...byAccount, comparisonId: z.string().min(1).max(100) });
export const comparisonListSchema = listPage(comparisonSchema, 'ComparisonList');
export const listComparisonsInputSchema = listComparisonsInput.extend(byAccount);
