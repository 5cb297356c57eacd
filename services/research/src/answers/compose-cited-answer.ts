import { z } from 'zod';
import { checkCitedText, groundCitations, type Llm } from '@vrs/ai';
import type { CitedAnswer, Evidence } from '@vrs/contracts';
import type { TraceContext } from '@vrs/kit';

export type ComposedAnswer = Omit<CitedAnswer, 'operationId'>;

/** Fewer hits than this and the answer says the evidence is insufficient instead of guessing. */
export const minEvidence = 1;
/** Evidence given to the model, best first: enough to answer, small enough for any context window. */
export const maxEvidence = 8;
/** Evidence quoted by an extractive answer. */
const extractiveItems = 3;

const claimsSchema = z.object({
  claims: z
    .array(
      z.object({
        text: z.string().min(1).max(2000).describe('One claim, in your own words, supported by the evidence it cites.'),
        evidenceIds: z.array(z.string()).min(1).max(8).describe('Ids of the evidence items supporting the claim, as given.'),
      }),
    )
    .max(12),
});

const system = [
  'You answer research questions using ONLY the numbered evidence items you are given.',
  'Write short claims. Every claim cites the ids of the evidence items that support it.',
  'Never cite an id that was not given, and never use outside knowledge.',
  'If the evidence does not answer the question, return no claims.',
].join(' ');

/** What a model may copy from the prompt into a claim: `[n]` markers and `(ev_…)` ids; the markers are rebuilt from the cited ids. */
const promptReferences = /\s*(?:\[\d+(?:\s*,\s*\d+)*\]|\((?:ev_[A-Za-z0-9]+(?:,\s*)?)+\))/g;

function promptOf(task: string, evidence: readonly Evidence[]): string {
  const items = evidence.map((item, i) => `[${i + 1}] (${item.id}) ${item.text.replace(/\s+/g, ' ')}`);
  return `${task}\n\nEvidence:\n${items.join('\n')}`;
}

function insufficient(task: string, warnings: string[] = []): ComposedAnswer {
  return {
    answer: `Insufficient evidence: nothing found answers "${task}" well enough to say anything without inventing it.`,
    citations: [],
    mode: 'insufficient_evidence',
    warnings,
  };
}

/** No model configured: the best evidence verbatim, labelled, each item its own citation. */
function extractive(evidence: readonly Evidence[]): ComposedAnswer {
  const citations = evidence.slice(0, extractiveItems).map((item, i) => ({ ...item, index: i + 1 }));
  const quotes = citations.map((item) => `"${item.text}" [${item.index}]`);
  return {
    answer: `Extractive answer (no language model is configured; these are the most relevant evidence items, quoted): ${quotes.join(' ')}`,
    citations,
    mode: 'extractive',
    warnings: [],
  };
}

/**
 * A cited answer to `task` from `evidence` (ranked, best first). The model's claims keep only ids it
 * was given, and one citing nothing goes (groundCitations); cited items are numbered in order of first
 * use and the text is built here, so every `[n]` marker points at a citation (checkCitedText still
 * guards it). Both models failing is the model's AI_UNAVAILABLE.
 */
export async function composeCitedAnswer(
  llm: Llm | null,
  task: string,
  evidence: readonly Evidence[],
  signal?: AbortSignal,
  /** The request's trace context: the model's attempts go under it (ADR 0117). */
  trace?: TraceContext,
): Promise<ComposedAnswer> {
  if (evidence.length < minEvidence) return insufficient(task);
  if (!llm) return extractive(evidence);
  const given = evidence.slice(0, maxEvidence);
  const generated = await llm.generateObject({ schema: claimsSchema, system, prompt: promptOf(task, given), signal, trace });
  const grounded = groundCitations({
    claims: generated.object.claims,
    allowedIds: given.map((item) => item.id),
    getIds: (claim) => claim.evidenceIds,
    setIds: (claim, evidenceIds) => ({ ...claim, evidenceIds }),
  });
  if (grounded.claims.length === 0) return { ...insufficient(task, grounded.warnings), model: generated.model };

  const byId = new Map(given.map((item) => [item.id, item]));
  const indexOf = new Map<string, number>();
  const sentences = grounded.claims.map((claim) => {
    const numbers = claim.evidenceIds.map((id) => {
      let index = indexOf.get(id);
      if (index === undefined) {
        index = indexOf.size + 1;
        indexOf.set(id, index);
      }
      return index;
    });
    return `${claim.text.replace(promptReferences, '').trim()} [${numbers.join(', ')}]`;
  });
  const citations = [...indexOf].map(([id, index]) => {
    const item = byId.get(id);
    // groundCitations kept only the ids of the evidence given.
    if (!item) throw new Error(`a grounded claim cites evidence ${id}, which was not given`);
    return { ...item, index };
  });
  const checked = checkCitedText(sentences.join(' '), citations);
  return { answer: checked.text, citations, mode: 'llm', model: generated.model, warnings: [...grounded.warnings, ...checked.warnings] };
}
