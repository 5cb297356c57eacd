import { z } from 'zod';
import { accountIdSchema } from './billing';
import { defineEvent } from './events';
import { providerIdSchema, uint } from './shapes';
import { idempotencyKey } from './research';
import { listPage, listQuery } from './lists';
import { workStateSchema } from './vocabulary';

/* Agent runs (issue 8, ADRs 0025 and 0026): enumerations the contract leaves open are fixed here. */

export type AgentRunStatus = z.infer<typeof workStateSchema>;
export const activeAgentRunStatuses: readonly AgentRunStatus[] = ['pending', 'running'];

/** What the classifier decided the message asks for (also the result's `intent`). */
export const agentRouteNameSchema = z.enum([
  'topic_research',
  'video_question',
  'channel_question',
  'video_comparison',
  'clarification',
  'out_of_scope',
]);
export type AgentRouteName = z.infer<typeof agentRouteNameSchema>;
export const researchBreadthSchema = z.enum(['focused', 'standard', 'broad']);
export type ResearchBreadth = z.infer<typeof researchBreadthSchema>;
export const answerDetailSchema = z.enum(['brief', 'standard', 'detailed']);
export type AnswerDetail = z.infer<typeof answerDetailSchema>;
export const agentConfidenceSchema = z.enum(['high', 'medium', 'low', 'none']);
export const agentOutcomeSchema = z.enum(['answered', 'partial', 'insufficient_evidence', 'needs_clarification', 'rejected']);
export type AgentOutcome = z.infer<typeof agentOutcomeSchema>;
export const agentToolNameSchema = z.enum([
  'search_videos',
  'get_video',
  'get_transcript',
  'get_channel',
  'search_project_evidence',
  'get_comments',
  'get_playlist',
  'get_trend_report',
  'get_storyboard',
]);
export type AgentToolName = z.infer<typeof agentToolNameSchema>;

export const agentMessageText = () => z.string().min(1, 'message must not be empty').max(4000, 'message must be at most 4000 characters');

/** Optional steering of the route; the classifier fills what is absent. */
export const agentRouteOptionsSchema = z
  .object({
    researchBreadth: researchBreadthSchema.optional().describe('How many videos to read: focused 2, standard 3, broad 5.'),
    answerDetail: answerDetailSchema.optional().describe('How many cited passages the answer quotes: brief 2, standard 3, detailed 5.'),
    useStoryboard: z.boolean().optional().describe('Ask for storyboard frames as evidence (needs a model; otherwise a warning).'),
  })
  .strict();

/* Each public operation's input (issue 38); the agents procedure extends it with what the gateway adds. */

/** The path of a run: both ids are the UUIDs admission returned. */
const runPath = () => ({
  sessionId: z.uuid().describe('UUID returned by agent admission.'),
  runId: z.uuid().describe('UUID returned by agent admission.'),
});

export const createAgentRunInput = z.strictObject({
  message: agentMessageText().describe(
    'The question, 1-4000 characters. An empty or too vague message completes with outcome `needs_clarification`.',
  ),
  sessionId: z.uuid().optional().describe('A session of yours: the run is its next turn. Absent: a new session.'),
  projectId: z.uuid().optional().describe('One of your projects: its saved evidence is searched too (tool `search_project_evidence`).'),
  route: agentRouteOptionsSchema.optional(),
});
export const listAgentRunsInput = listQuery().extend({ sessionId: runPath().sessionId }).strict();
export const getAgentRunInput = z.strictObject({
  ...runPath(),
  responseFormat: z.enum(['compact', 'legacy']).default('compact').describe('Affects only this response, not execution.'),
  details: z
    .string()
    .max(100)
    .optional()
    .describe(
      'Comma-separated subset of `artifacts`, `evidence`, `diagnostics` (at most 100 characters); only with `responseFormat=compact`.',
    ),
});
export const cancelAgentRunInput = z.strictObject(runPath());
/** The plain route's procedure: the path, and the last event already seen (`Last-Event-ID`). */
export const streamAgentRunEventsInput = z.strictObject({ ...runPath(), afterSeq: uint() });

const runIdentity = {
  runId: z.uuid(),
  sessionId: z.uuid(),
  userMessageId: z.uuid(),
  agentMessageId: z.uuid(),
};

export const agentRunAdmissionSchema = z
  .object({
    ...runIdentity,
    conversationTurn: z.number().int().min(1),
    status: z.literal('pending'),
    creditsHeld: uint()
      .optional()
      .describe("The run's credit budget, held at admission: tool calls are charged against it and the rest goes back when the run ends."),
  })
  .meta({ id: 'AgentRunAdmission' });
export type AgentRunAdmission = z.infer<typeof agentRunAdmissionSchema>;

export const agentRouteSchema = z
  .object({
    route: agentRouteNameSchema,
    researchBreadth: researchBreadthSchema,
    searchQuery: z.string(),
    useStoryboard: z.boolean(),
    answerDetail: answerDetailSchema,
  })
  .meta({ id: 'AgentRoute' });
export type AgentRoute = z.infer<typeof agentRouteSchema>;

export const agentWarningSchema = z.object({ code: z.string(), message: z.string() }).meta({ id: 'AgentWarning' });
export type AgentWarning = z.infer<typeof agentWarningSchema>;

export const agentBillingSchema = z
  .object({
    creditsCharged: uint().describe('Credits charged for the steps persisted so far (final once the run has ended).'),
    creditsRemaining: z
      .number()
      .int()
      .describe('The balance: after settlement once the run has ended, else beside the run’s reserved budget.'),
  })
  .meta({ id: 'AgentBilling' });

export const agentSourceSchema = z
  .object({
    id: z.string(),
    type: z.enum(['video', 'channel', 'project_evidence']),
    provider: providerIdSchema,
    videoId: z.string().optional(),
    channelId: z.string().optional(),
    playlistId: z.string().optional(),
    projectId: z.string().optional(),
    title: z.string(),
    url: z.string(),
  })
  .meta({ id: 'AgentSource' });
export type AgentSource = z.infer<typeof agentSourceSchema>;

/** A citation as the compact format's `evidence` detail lists it: its source by id. */
export const agentEvidenceSchema = z
  .object({
    id: z.string(),
    sourceId: z.string(),
    excerpt: z.string(),
    startMs: uint().optional(),
    endMs: uint().optional(),
  })
  .meta({ id: 'AgentEvidence' });

/** The legacy citation: everything about its source inline. */
export const agentCitationSchema = z
  .object({
    id: z.string(),
    sourceId: z.string(),
    provider: providerIdSchema,
    excerpt: z.string(),
    videoId: z.string().optional(),
    channelId: z.string().optional(),
    playlistId: z.string().optional(),
    title: z.string(),
    url: z.string(),
    startMs: uint().optional(),
    endMs: uint().optional(),
  })
  .meta({ id: 'AgentCitation' });
export type AgentCitation = z.infer<typeof agentCitationSchema>;

export const agentArtifactSchema = z
  .object({
    type: z.enum(['video_list', 'comparison_table', 'channel_profile']),
    title: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AgentArtifact' });
export type AgentArtifact = z.infer<typeof agentArtifactSchema>;

export const extractionDiagnosticSchema = z.record(z.string(), z.unknown()).meta({ id: 'ExtractionDiagnostic' });
/** A grounding issue of a finding (`@vrs/ai` checkQuotedFindings); fieldIndex: 0 claim, 1 quote, 2 windowIndex. */
export const transcriptGroundingIssueSchema = z.object({
  code: z.enum(['QUOTE_NOT_IN_WINDOW', 'WINDOW_OUT_OF_RANGE', 'ENTITY_NOT_SUPPORTED']),
  message: z.string(),
  findingIndex: uint(),
  fieldIndex: uint(),
  windowIndex: z.number().int(),
});

/**
 * One event of the transcript analyst (ADR 0026): a model call starting, or how it ended. Every item
 * carries every field; one that does not apply is null.
 */
export const transcriptDiagnosticSchema = z
  .object({
    version: z.literal(1),
    stage: z.enum(['transcript_analysis', 'repair']),
    videoId: z.string(),
    modelCallId: z.uuid().describe('One model request: its `started` item and the item saying how it ended share it.'),
    attemptId: z.uuid().describe("One video's analysis: its first call and its repair share it."),
    attempt: z.number().int().min(1).describe('1 for the analysis, 2 for its repair.'),
    recordedAt: z.iso.datetime(),
    outcome: z.enum(['started', 'accepted', 'rejected', 'repaired', 'failed']),
    elapsedMs: uint(),
    code: z.enum(['GROUNDING_REJECTED', 'MODEL_FAILED', 'TIMEOUT']).nullable(),
    finishReason: z.string().nullable(),
    modelId: z.string().nullable().describe('The model that answered (the fallback when the primary failed), or the last one tried.'),
    inputTokens: uint().nullable(),
    outputTokens: uint().nullable(),
    cancellationReason: z.string().nullable().describe('`run_time_limit` when the run’s time ran out during the call.'),
    statusCode: z.number().int().nullable().describe("The HTTP status of the model endpoint's error answer."),
    issues: z.array(transcriptGroundingIssueSchema),
    issueCount: uint(),
    repairFeedback: z.string().nullable().describe('The feedback the repair call was sent.'),
    rejectedOutput: z.string().nullable().describe('The rejected answer as JSON (capped).'),
    sourceContext: z.object({ title: z.string(), channel: z.string() }),
    sourceWindows: z.array(z.object({ index: uint(), startMs: uint(), endMs: uint(), text: z.string() })),
    captureTruncated: z.boolean().describe('A captured text (the rejected output or a window) was cut to its cap.'),
  })
  .meta({ id: 'TranscriptDiagnostic' });
export type TranscriptDiagnostic = z.infer<typeof transcriptDiagnosticSchema>;

const runCommon = {
  ...runIdentity,
  conversationTurn: z.number().int().min(1),
  status: workStateSchema,
  route: agentRouteSchema.optional().describe('Present once the classifier has run.'),
  modelStepCount: uint(),
  toolCallCount: uint(),
  error: z.string().optional(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

const diagnosticsFields = {
  extractionDiagnostics: z.array(extractionDiagnosticSchema),
  extractionDiagnosticsTruncated: z.boolean(),
  transcriptDiagnostics: z.array(transcriptDiagnosticSchema),
};

export const compactAgentResultSchema = z
  .object({
    outcome: agentOutcomeSchema,
    answer: z.string(),
    intent: agentRouteNameSchema,
    confidence: agentConfidenceSchema,
    sources: z.array(agentSourceSchema),
    warnings: z.array(agentWarningSchema),
    evidence: z.array(agentEvidenceSchema).optional().describe('With `details=evidence`.'),
    artifacts: z.array(agentArtifactSchema).optional().describe('With `details=artifacts`.'),
  })
  .meta({ id: 'CompactAgentResult' });

export const compactAgentRunSchema = z
  .object({
    ...runCommon,
    result: compactAgentResultSchema.optional(),
    billing: agentBillingSchema,
    ...Object.fromEntries(Object.entries(diagnosticsFields).map(([key, schema]) => [key, schema.optional()])),
  })
  .meta({ id: 'CompactAgentRun' });

export const legacyAgentResultSchema = z
  .object({
    ...runIdentity,
    answer: z.string(),
    intent: agentRouteNameSchema,
    confidence: agentConfidenceSchema,
    citations: z.array(agentCitationSchema),
    artifacts: z.array(agentArtifactSchema),
    warnings: z.array(agentWarningSchema),
    billing: agentBillingSchema,
  })
  .meta({ id: 'LegacyAgentResult' });

export const legacyAgentRunSchema = z
  .object({ ...runCommon, result: legacyAgentResultSchema.optional(), ...diagnosticsFields })
  .meta({ id: 'LegacyAgentRun' });

export const agentRunViewSchema = z.union([compactAgentRunSchema, legacyAgentRunSchema]);
export type AgentRunView = z.infer<typeof agentRunViewSchema>;

/** The session's runs, newest first, in the one list convention (ADR 0020). */
export const agentRunListSchema = listPage(compactAgentRunSchema, 'AgentRunList');

export const agentRunDetailSchema = z.enum(['artifacts', 'evidence', 'diagnostics']);
export type AgentRunDetail = z.infer<typeof agentRunDetailSchema>;
export const agentResponseFormatSchema = z.enum(['compact', 'legacy']);

/** One thing that happened to a run, in order: what the SSE stream sends. */
export const agentRunEventSchema = z
  .object({
    seq: z.number().int().min(1),
    type: z.enum(['status', 'step']),
    at: z.iso.datetime(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AgentRunEvent' });
export type AgentRunEvent = z.infer<typeof agentRunEventSchema>;

/* Internal procedure I/O of the agents service: the gateway passes the authenticated account. */

export const agentCallerSchema = z.object({
  accountId: accountIdSchema,
  /** The caller authenticated as an `X-Demo-User`: admitted when demo access is on (npm start). */
  demo: z.boolean().default(false),
});

export const createAgentRunInputSchema = createAgentRunInput
  .extend({
    idempotencyKey: idempotencyKey().optional(),
    requestId: z.string().max(200).optional(),
  })
  .extend(agentCallerSchema.shape);

/** cancelAgentRun, and the base of the reads of one run. */
export const agentRunRefInputSchema = cancelAgentRunInput.extend({ accountId: accountIdSchema });
export const getAgentRunInputSchema = agentRunRefInputSchema.extend({
  responseFormat: agentResponseFormatSchema.default('compact'),
  details: z.array(agentRunDetailSchema).default([]),
});
export const listAgentRunsInputSchema = listAgentRunsInput.extend({ accountId: accountIdSchema });
export const listAgentRunEventsInputSchema = agentRunRefInputSchema.extend({
  afterSeq: uint().default(0),
  limit: z.number().int().min(1).max(500).default(100),
});
export const allowAgentAccountInputSchema = z.strictObject({ accountId: accountIdSchema, allowed: z.boolean().default(true) });

/** A run was admitted; one replica of the agents service executes (or resumes) it. */
export const agentsRunRequested = defineEvent(
  'agents.run.requested',
  z.object({ accountId: z.string().min(1), sessionId: z.uuid(), runId: z.uuid() }),
);
