import { z } from 'zod';
import { evidenceSchema, projectSchema } from './shapes';
import { accountIdSchema } from './billing';

/*
 * Schemas the gateway hands to trpc-to-openapi are built by factories: that library switches on
 * coercion by mutating the schema objects it is given, which must never leak into a service.
 */
export const projectName = () => z.string().trim().min(1, 'name must not be blank').max(200);
export const projectNameSchema = projectName();
export const projectIdSchema = z.string().min(1).max(100);

export const evidenceText = () => z.string().trim().min(1, 'text must not be blank').max(20_000);
export const sourceKey = () => z.string().trim().min(1).max(500);
export const evidenceTextSchema = evidenceText();
export const sourceKeySchema = sourceKey();

/** One item of saved material as the caller sends it. */
export const evidenceInputItem = () =>
  z.object({
    text: evidenceText(),
    sourceKey: sourceKey()
      .optional()
      .describe('Names the unit of source material; unique within the project. Posting the same sourceKey again updates that item.'),
    entityId: z.string().trim().min(1).max(200).optional(),
    startMs: z.number().int().min(0).optional(),
  });
export const evidenceInputItemSchema = evidenceInputItem();
export const maxEvidenceItemsPerRequest = 100;
export const addEvidenceBodySchema = z.object({
  items: z.array(evidenceInputItemSchema).min(1).max(maxEvidenceItemsPerRequest),
});

export const storedEvidenceSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    text: z.string(),
    sourceKey: z.string().optional(),
    entityId: z.string().optional(),
    startMs: z.number().int().min(0).optional(),
    provider: z.enum(['youtube']).optional(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'StoredEvidence' });
export type StoredEvidence = z.infer<typeof storedEvidenceSchema>;

export const addEvidenceResultSchema = z
  .object({ items: z.array(storedEvidenceSchema) })
  .meta({ id: 'AddEvidenceResult' });

export const searchQuerySchema = z.string().max(500);
export const searchResultSchema = z
  .object({ query: z.string(), results: z.array(evidenceSchema) })
  .meta({ id: 'EvidenceSearchResult' });
export type SearchResult = z.infer<typeof searchResultSchema>;

export const projectListSchema = z
  .object({ projects: z.array(projectSchema), hasMore: z.boolean() })
  .meta({ id: 'ProjectList' });

/* Internal procedure I/O of the research service: the gateway passes the authenticated account. */

export const createProjectInputSchema = z.object({ accountId: accountIdSchema, name: projectNameSchema });
export const listProjectsInputSchema = z.object({
  accountId: accountIdSchema,
  limit: z.number().int().min(1).max(100).default(50),
  startingAfter: z.string().optional(),
});
export const projectRefInputSchema = z.object({ accountId: accountIdSchema, projectId: projectIdSchema });
export const addEvidenceInputSchema = projectRefInputSchema.extend(addEvidenceBodySchema.shape);
export const searchEvidenceInputSchema = projectRefInputSchema.extend({
  q: z.string().trim().min(1).max(500),
  limit: z.number().int().min(1).max(100).default(20),
});
