import { z } from 'zod';

/** A whole number from 0: a count, a duration, a position in milliseconds. */
export const uint = () => z.number().int().min(0);

export const providerIdSchema = z.enum(['youtube']).describe('The supported video platform.');
export type ProviderId = z.infer<typeof providerIdSchema>;

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().describe('Stable UPPER_SNAKE_CASE error code.'),
      message: z.string(),
      details: z.unknown().optional(),
      requestId: z.string().optional(),
    }),
  })
  .meta({ id: 'ErrorEnvelope' });
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const metaSchema = z
  .object({
    provider: providerIdSchema,
    source: z.string().describe('Constant string naming the service.'),
    fetchedAt: z.iso.datetime(),
    partial: z.boolean().describe('True means the result may be incomplete; inspect warnings.'),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'Meta' });
export type Meta = z.infer<typeof metaSchema>;

export const thumbnailSchema = z.object({ url: z.string(), width: z.number().int(), height: z.number().int() }).meta({ id: 'Thumbnail' });
export type Thumbnail = z.infer<typeof thumbnailSchema>;

export const evidenceSchema = z
  .object({
    id: z.string(),
    score: z.number(),
    text: z.string(),
    provider: providerIdSchema.optional(),
    entityId: z.string().optional(),
    startMs: uint().optional(),
    sourceKey: z.string().optional(),
    index: z.number().int().min(1).optional(),
  })
  .meta({ id: 'Evidence' });
export type Evidence = z.infer<typeof evidenceSchema>;

export const projectSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: z.iso.datetime().describe('When the project was created.'),
    updatedAt: z.iso.datetime().describe('When the project itself (its name) last changed; its evidence has dates of its own.'),
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof projectSchema>;

/** What a DELETE answers (ADR 0020): the id of what is gone, as Stripe answers it. */
export const deletedSchema = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'Deleted', description: 'The resource is gone; reading it again is a 404.' });
export type Deleted = z.infer<typeof deletedSchema>;
