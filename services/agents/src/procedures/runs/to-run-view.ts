import type { AgentRunDetail, TranscriptDiagnostic } from '@vrs/contracts';
import type { RunDoc } from '../../repo/runs-repo';
import { tallyOf, type StepDoc } from '../../repo/steps-repo';

function billingOf(run: RunDoc, steps: readonly StepDoc[]) {
  if (run.billing && run.settled) return run.billing;
  // Still running: what the persisted steps cost so far, beside the balance the hold left at admission.
  return { creditsCharged: tallyOf(steps).creditsCharged, creditsRemaining: run.balanceAtAdmission };
}

/**
 * An ended run becomes visible as ended once its credits are settled (a moment later, or after a
 * redelivery if the process died in between): until then it reads as still running, without result.
 */
function visible(run: RunDoc): RunDoc {
  if (run.status === 'pending' || run.status === 'running' || run.settled) return run;
  const { result: _result, error: _error, ...rest } = run;
  return { ...rest, status: 'running' };
}

function commonOf(run: RunDoc, steps: readonly StepDoc[]) {
  const { modelStepCount, toolCallCount } = tallyOf(steps);
  return {
    runId: run._id,
    sessionId: run.sessionId,
    userMessageId: run.userMessageId,
    agentMessageId: run.agentMessageId,
    conversationTurn: run.conversationTurn,
    status: run.status,
    ...(run.route ? { route: run.route } : {}),
    modelStepCount,
    toolCallCount,
    ...(run.error ? { error: run.error } : {}),
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  };
}

/** Transcript diagnostics from the analysis steps (so they show while the run goes on), storyboard ones from the run (ADR 0026). */
function diagnosticsOf(run: RunDoc, steps: readonly StepDoc[]) {
  const transcriptDiagnostics = steps
    .filter((step) => step.kind === 'transcript_analysis' && step.status === 'completed')
    .flatMap((step) => (step.output as { diagnostics?: TranscriptDiagnostic[] }).diagnostics ?? []);
  return {
    extractionDiagnostics: run.extractionDiagnostics ?? [],
    extractionDiagnosticsTruncated: run.extractionDiagnosticsTruncated ?? false,
    transcriptDiagnostics,
  };
}

/**
 * The compact format (default): the outcome, deduplicated sources and top-level billing; evidence,
 * artifacts and diagnostics only when asked for in `details` (ADR 0025).
 */
export function toCompactRun(stored: RunDoc, steps: readonly StepDoc[], details: readonly AgentRunDetail[] = []) {
  const run = visible(stored);
  const result = run.result;
  return {
    ...commonOf(run, steps),
    ...(result
      ? {
          result: {
            outcome: result.outcome,
            answer: result.answer,
            intent: result.intent,
            confidence: result.confidence,
            sources: result.sources,
            warnings: result.warnings,
            ...(details.includes('evidence')
              ? {
                  evidence: result.citations.map(({ id, sourceId, excerpt, startMs, endMs }) => ({
                    id,
                    sourceId,
                    excerpt,
                    ...(startMs === undefined ? {} : { startMs }),
                    ...(endMs === undefined ? {} : { endMs }),
                  })),
                }
              : {}),
            ...(details.includes('artifacts') ? { artifacts: result.artifacts } : {}),
          },
        }
      : {}),
    billing: billingOf(run, steps),
    ...(details.includes('diagnostics') ? diagnosticsOf(run, steps) : {}),
  };
}

/** The legacy format: the previous detailed layout, citations carrying everything about their source. */
export function toLegacyRun(stored: RunDoc, steps: readonly StepDoc[]) {
  const run = visible(stored);
  const result = run.result;
  const billing = billingOf(run, steps);
  return {
    ...commonOf(run, steps),
    ...(result
      ? {
          result: {
            runId: run._id,
            sessionId: run.sessionId,
            userMessageId: run.userMessageId,
            agentMessageId: run.agentMessageId,
            answer: result.answer,
            intent: result.intent,
            confidence: result.confidence,
            citations: result.citations.map(({ window: _window, ...citation }) => citation),
            artifacts: result.artifacts,
            warnings: result.warnings,
            billing,
          },
        }
      : {}),
    ...diagnosticsOf(run, steps),
  };
}
