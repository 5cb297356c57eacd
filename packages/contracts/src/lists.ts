import { z } from 'zod';

/*
 * One list convention for every list of ours (ADR 0020): `limit` + `cursor` in, `{data, hasMore,
 * nextCursor}` out, newest first. Platform pages keep the contract's `continuation` instead.
 */

export const maxListLimit = 100;
export const defaultListLimit = 20;
export const maxCursorLength = 500;

const cursorDescription = 'The `nextCursor` of the previous page, unchanged; leave it out for the first page.';

/** Query parameters of a public list; `limit` is coerced, as a query string carries it. */
export const listQuery = () =>
  z.object({
    limit: z.coerce
      .number<number>()
      .int()
      .min(1)
      .max(maxListLimit)
      .default(defaultListLimit)
      .describe(`Items per page, 1-${maxListLimit} (default ${defaultListLimit}).`),
    cursor: z.string().min(1).max(maxCursorLength).optional().describe(cursorDescription),
  });

/** A page of a list: its items, whether more follow, and the cursor that fetches them. */
export const listPage = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      data: z.array(item).describe('The items of this page, newest first.'),
      hasMore: z.boolean().describe('True when another page follows.'),
      nextCursor: z.string().nullable().describe('Pass it as `cursor` to fetch the next page; null on the last page.'),
    })
    .meta({ id });

export interface ListPage<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * Where a page ended: the sort key `(createdAt, id)` of its last item, and which list it belongs
 * to. A position, not an item: it stays valid when that item is deleted meanwhile.
 */
export interface ListPosition {
  createdAt: string;
  id: string;
}

const positionSchema = z.object({ l: z.string(), t: z.iso.datetime(), i: z.string().min(1).max(200) });

/** Opaque to clients (base64url JSON), so its inside may change without breaking them. */
export function encodeCursor(list: string, position: ListPosition): string {
  return Buffer.from(JSON.stringify({ l: list, t: position.createdAt, i: position.id })).toString('base64url');
}

/** The position a cursor names, or null when it is not a cursor of this list. */
export function decodeCursor(list: string, cursor: string): ListPosition | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const position = positionSchema.safeParse(parsed);
  if (!position.success || position.data.l !== list) return null;
  return { createdAt: position.data.t, id: position.data.i };
}

/** Newest first: later `createdAt` first, then the greater id (ids break ties within a millisecond). */
export function compareNewestFirst(a: ListPosition, b: ListPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? 1 : -1;
}
