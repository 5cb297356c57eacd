import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readPromptFacts } from './prompt-facts';
import { fillSchema, type JsonSchema } from './schema-filler';

const prompt =
  'Plan videos about espresso\n[1] (id: ev_1) Finer grinds extract faster.\n[2] (id: ev_2) Coarse grinds taste sour.\nvideoId: dQw4w9WgXcQ\nvideoId: abcDEF12345';
const facts = readPromptFacts(prompt);

// The JSON Schema the AI SDK sends for a zod schema.
const jsonSchemaOf = (schema: z.ZodType) => z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as JsonSchema;
const fill = (schema: z.ZodType, citeUnknown = false) => fillSchema(jsonSchemaOf(schema), facts, { citeUnknown });

// What the agents' transcript analyst asks for: findings quoting numbered windows.
const findingsSchema = z.object({ findings: z.array(z.object({ claim: z.string(), quote: z.string(), windowIndex: z.int() })) });
const windowsPrompt = `Question: how is it inserted?\n[4] ${'The mask goes in with the cuff deflated along the hard palate until you feel resistance, '.repeat(2)}then inflate.\n[9] Check the seal.`;

describe('fillSchema', () => {
  it('fills every kind of zod schema with a value that parses', () => {
    const schema = z.object({
      title: z.string().min(30).max(40),
      mode: z.enum(['fast', 'slow']),
      kind: z.literal('plan'),
      confidence: z.number().min(0).max(1),
      count: z.int().min(3),
      anything: z.int(),
      ready: z.boolean(),
      note: z.string().nullable(),
      either: z.union([z.number(), z.string()]),
      at: z.iso.datetime(),
      link: z.url(),
      pair: z.tuple([z.string(), z.number()]),
      tally: z.record(z.string(), z.number()),
      steps: z
        .array(z.object({ text: z.string(), evidenceIds: z.array(z.string()).min(1).max(1) }))
        .min(3)
        .max(3),
      optionalTags: z.array(z.string()).optional(),
      merged: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
    });
    const value = fill(schema);

    expect(schema.parse(value)).toEqual(value);
    expect(value).toMatchObject({ mode: 'fast', kind: 'plan', confidence: 0.5, count: 4, anything: 1, at: '2026-01-01T00:00:00Z' });
  });

  it('resolves $ref, including recursive schemas', () => {
    const node: z.ZodType<{ name: string; children: unknown[] }> = z.object({ name: z.string(), children: z.array(z.lazy(() => node)) });
    const value = fill(node);

    expect(node.parse(value)).toEqual(value);
  });

  it('cites ids from the prompt, matched to the field name and rotated across items', () => {
    const schema = z.object({
      claims: z.array(z.object({ evidenceIds: z.array(z.string()).min(1).max(1) })),
      videos: z.array(z.object({ videoId: z.string() })),
    });
    const value = fill(schema) as z.infer<typeof schema>;

    expect(value.claims).toEqual([{ evidenceIds: ['ev_1'] }, { evidenceIds: ['ev_2'] }]);
    expect(value.videos).toEqual([{ videoId: 'dQw4w9WgXcQ' }, { videoId: 'abcDEF12345' }]);
  });

  it('writes prose from the [n] entries, marked [n], and citation numbers that point at them', () => {
    const value = fill(z.object({ answer: z.string(), citationIndex: z.int() })) as { answer: string; citationIndex: number };

    expect(value.answer).toBe('(id: ev_1) Finer grinds extract faster [1].');
    expect(value.citationIndex).toBe(1);
  });

  it('with citeUnknown, alternates repairable and wholly fabricated citations and adds a marker past the last entry', () => {
    const schema = z.object({
      answer: z.string(),
      claims: z.array(z.object({ evidenceIds: z.array(z.string()) })),
      plan: z.array(z.object({ videoIds: z.array(z.string()) })),
    });
    const value = fill(schema, true) as z.infer<typeof schema>;

    expect(value.answer).toBe('(id: ev_1) Finer grinds extract faster [1] [3].');
    expect(value.claims).toEqual([{ evidenceIds: ['ev_1', 'ev_fabricated'] }, { evidenceIds: ['ev_fabricated'] }]);
    expect(value.plan).toEqual([{ videoIds: ['dQw4w9WgXcQ', 'vid_fabricated'] }, { videoIds: ['vid_fabricated'] }]);
  });

  it('fills a schema-required id list even when the prompt gave no ids', () => {
    const value = fillSchema(jsonSchemaOf(z.object({ videoIds: z.array(z.string()).min(1) })), readPromptFacts('no ids here'), {
      citeUnknown: false,
    });

    expect(value).toEqual({ videoIds: ['vid_fabricated'] });
  });

  it('quotes an entry word for word (never cut mid-word) and cites the same entry by number', () => {
    const value = fillSchema(jsonSchemaOf(findingsSchema), readPromptFacts(windowsPrompt), { citeUnknown: false }) as z.infer<
      typeof findingsSchema
    >;
    const [first, second] = value.findings;
    if (!first || !second) throw new Error('two findings expected');

    expect(first.windowIndex).toBe(4);
    expect(first.quote.length).toBeLessThanOrEqual(120);
    expect(windowsPrompt).toContain(`[4] ${first.quote} `);
    expect(first.claim).toMatch(/^The mask goes in .* \[4\]\.$/);
    expect(windowsPrompt).toContain(`[4] ${first.claim.replace(' [4].', '')} `);
    expect(second).toEqual({ claim: 'Check the seal [9].', quote: 'Check the seal.', windowIndex: 9 });
  });

  it('with unground, quotes text no entry has, cites every other window past the last, and names what the prompt never did', () => {
    const value = fillSchema(jsonSchemaOf(findingsSchema), readPromptFacts(windowsPrompt), {
      citeUnknown: false,
      unground: true,
    }) as z.infer<typeof findingsSchema>;

    expect(value.findings.map((finding) => finding.windowIndex)).toEqual([4, 10]);
    for (const finding of value.findings) {
      expect(windowsPrompt).not.toContain(finding.quote);
      expect(finding.claim).toContain('Zebulon Quillfeather reported in 1887');
    }
  });
});
