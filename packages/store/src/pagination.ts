import { decodeCursor, encodeCursor, type ListPage } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import type { Collection, Filter, StoreDocument } from './port';

/** A document a public list pages over: ordered newest first by `(createdAt, _id)`. */
export interface ListedDocument extends StoreDocument {
  createdAt: string;
}

export interface PageRequest {
  limit: number;
  cursor?: string;
}

/**
 * One page of a list (ADR 0020), newest first by `(createdAt, _id)`: ids break ties between items
 * of the same millisecond, so pages never skip or repeat an item while new ones arrive. The cursor
 * is the position of the previous page's last item, so deleting that item does not break it; a
 * cursor of another list, or no cursor at all, is 422 INVALID_CURSOR. One extra document answers
 * `hasMore` without a count. `filter` must hold the owner: a cursor is only a position.
 */
export async function findPage<T extends ListedDocument>(
  collection: Collection<T>,
  list: string,
  filter: Filter<T>,
  { limit, cursor }: PageRequest,
): Promise<ListPage<T>> {
  let where: Filter<T> = filter;
  if (cursor !== undefined) {
    const after = decodeCursor(list, cursor);
    if (!after) throw new AppError('INVALID_CURSOR', undefined, { list });
    where = {
      $and: [filter, { $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after.id } }] }],
    } as Filter<T>;
  }
  const docs = await collection.find(where, { sort: { createdAt: -1, _id: -1 }, limit: limit + 1 });
  const data = docs.slice(0, limit);
  const last = data.at(-1);
  const hasMore = docs.length > limit;
  return { data, hasMore, nextCursor: hasMore && last ? encodeCursor(list, { createdAt: last.createdAt, id: last._id }) : null };
}

/** The same page with its items in their public shape. */
export function mapPage<T, R>(page: ListPage<T>, toItem: (item: T) => R): ListPage<R> {
  return { ...page, data: page.data.map(toItem) };
}
