import type { TranscriptDiagnostic } from '@vrs/contracts';

export type { TranscriptDiagnostic };
export type TranscriptDiagnosticStage = TranscriptDiagnostic['stage'];
export type TranscriptDiagnosticOutcome = TranscriptDiagnostic['outcome'];
export type TranscriptDiagnosticCode = NonNullable<TranscriptDiagnostic['code']>;

/** Caps on what a diagnostic captures, so a run's diagnostics stay a few kilobytes per video. */
export const captureCaps = { windowChars: 600, rejectedOutputChars: 4000 } as const;
