import { describe, expect, it } from 'vitest';
import { compareNewestFirst, decodeCursor, encodeCursor, type ListPosition } from '@vrs/contracts';
import { listOperationsHandler } from './list-operations';

/** One service's side of the list: its items newest first, paged from a position as findPage does. */
function pagedSource(items: ListPosition[]) {
  const sorted = [...items].sort(compareNewestFirst);
  return {
    query: async ({ limit, cursor }: { limit: number; cursor?: string }) => {
      const after = cursor === undefined ? undefined : decodeCursor('operations', cursor);
      const rest = after ? sorted.filter((item) => compareNewestFirst(item, after) > 0) : sorted;
      const data = rest.slice(0, limit);
      const hasMore = rest.length > limit;
      return { data, hasMore, nextCursor: hasMore ? encodeCursor('operations', data.at(-1)!) : null };
    },
  };
}

const at = (minute: number, id: string): ListPosition => ({ createdAt: new Date(Date.UTC(2026, 10, 24, 12, minute)).toISOString(), id });

describe('listing operations across research and trends', () => {
  it('merges both services’ pages newest first, page after page, skipping and repeating nothing', async () => {
    // Answers and reports in research, plans in trends, interleaved in time, two of them in the same minute.
    const answers = [at(1, 'a1'), at(3, 'a3'), at(4, 'a4'), at(7, 'a7'), at(9, 'same-a')];
    const plans = [at(2, 'p2'), at(5, 'p5'), at(6, 'p6'), at(9, 'same-p')];
    const ctx = {
      principal: { accountId: 'acct_1' },
      services: { research: { operations: { list: pagedSource(answers) } }, trends: { plans: { list: pagedSource(plans) } } },
    } as never;

    for (const limit of [1, 2, 3, 9, 10]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 20; pages++) {
        const page = await listOperationsHandler({ ctx, input: { limit, cursor } });
        expect(page.data.length).toBeLessThanOrEqual(limit);
        seen.push(...page.data.map((item) => item.id));
        if (!page.hasMore) {
          expect(page.nextCursor).toBeNull();
          break;
        }
        cursor = page.nextCursor!;
      }
      expect(seen, `limit ${limit}`).toEqual(['same-p', 'same-a', 'a7', 'p6', 'p5', 'a4', 'a3', 'p2', 'a1']);
    }
  });
});
