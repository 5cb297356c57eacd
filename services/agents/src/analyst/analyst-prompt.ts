import type { GroundingIssue } from '@vrs/ai';
import { z } from 'zod';
import type { TranscriptWindow } from '../planner/windows';

/** Findings one analysis may return: enough for a detailed answer, few enough to check and show. */
export const maxFindingsPerAnalysis = 6;

/** What the model answers: findings, each quoting one window it was given. */
export const analystAnswerSchema = z.object({
  findings: z
    .array(
      z.object({
        claim: z.string().min(1).max(600).describe('One sentence answering the question, saying only what the quoted window says.'),
        quote: z.string().min(1).max(600).describe('A short passage copied word for word from the window.'),
        windowIndex: z.number().int().min(0).describe('The number in brackets of the window quoted.'),
      }),
    )
    .max(maxFindingsPerAnalysis),
});
export type AnalystAnswer = z.infer<typeof analystAnswerSchema>;

export const analystSystemPrompt = [
  'You are a transcript analyst. You read numbered windows of one video transcript and extract findings that answer the question.',
  'Each finding has a claim (one sentence), a quote copied word for word from one window, and that window’s number.',
  'Use only the windows given. A claim names no person, place, product or number that its window does not mention.',
  `Return at most ${maxFindingsPerAnalysis} findings, none when no window answers the question.`,
].join('\n');

export interface AnalystSource {
  question: string;
  title: string;
  channel: string;
  windows: readonly TranscriptWindow[];
}

/** The question, the video and its windows, one `[index] text` line each (the index is what a finding cites). */
export function analystPrompt({ question, title, channel, windows }: AnalystSource): string {
  return [
    `Question: ${question.replace(/\s+/g, ' ')}`,
    `Video: "${title.replace(/\s+/g, ' ')}" by ${channel.replace(/\s+/g, ' ')}`,
    'Transcript windows:',
    ...windows.map((window) => `[${window.index}] ${window.text}`),
  ].join('\n');
}

/** The feedback a repair call is sent: every issue by its code, so the model can fix each. */
export function repairFeedbackOf(issues: readonly GroundingIssue[]): string {
  return [
    'Your previous answer was rejected: these findings are not grounded in the windows.',
    ...issues.map((issue) => `- ${issue.code}: ${issue.message}`),
    'Answer again: copy each quote exactly from the window you cite, cite only the windows listed, and name in a claim only what its window mentions. Leave out a finding you cannot ground.',
  ].join('\n');
}

export function repairPrompt(source: AnalystSource, rejected: AnalystAnswer, feedback: string): string {
  return `${analystPrompt(source)}\n\nYour previous answer: ${JSON.stringify(rejected)}\n\n${feedback}`;
}
