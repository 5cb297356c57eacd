import { describe, expect, it } from 'vitest';
import type { Logger } from '@vrs/kit';
import { logShapeFallbacks } from './log-shape-fallbacks';

function recordingLogger() {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const logger = { warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }) } as unknown as Logger;
  return { logger, warnings };
}

describe('logShapeFallbacks', () => {
  it('logs each kind of fallback the first time, then at its 10th, 100th and 1,000th time with its count', () => {
    const { logger, warnings } = recordingLogger();
    const note = logShapeFallbacks(logger);
    for (let i = 0; i < 1_000; i++) note({ page: 'comment-threads', reason: 'item commentsPromoRenderer' });
    note({ page: 'comment-replies', reason: 'item commentsPromoRenderer' });
    note({ page: 'comment-threads', reason: 'thread view commentViewModelV2' });
    expect(warnings.map((warning) => warning.fields)).toEqual([
      { page: 'comment-threads', reason: 'item commentsPromoRenderer', count: 1 },
      { page: 'comment-threads', reason: 'item commentsPromoRenderer', count: 10 },
      { page: 'comment-threads', reason: 'item commentsPromoRenderer', count: 100 },
      { page: 'comment-threads', reason: 'item commentsPromoRenderer', count: 1000 },
      { page: 'comment-replies', reason: 'item commentsPromoRenderer', count: 1 },
      { page: 'comment-threads', reason: 'thread view commentViewModelV2', count: 1 },
    ]);
    expect(warnings[0]!.message).toMatch(/youtubei\.js/);
  });

  it('counts a thousand kinds one by one, and the kinds past them together', () => {
    const { logger, warnings } = recordingLogger();
    const note = logShapeFallbacks(logger);
    for (let i = 0; i < 1_000; i++) note({ page: 'comment-threads', reason: `item renderer${i}` });
    for (let i = 1_000; i < 1_010; i++) note({ page: 'comment-threads', reason: `item renderer${i}` });
    const others = warnings.filter((warning) => !/^item renderer\d+$/.test(warning.fields.reason as string));
    expect(others.map((warning) => warning.fields)).toEqual([
      { page: 'comment-threads', reason: 'other kinds, past the first 1,000', count: 1 },
      { page: 'comment-threads', reason: 'other kinds, past the first 1,000', count: 10 },
    ]);
    for (let i = 0; i < 9; i++) note({ page: 'comment-threads', reason: 'item renderer0' });
    expect(warnings.filter((warning) => warning.fields.reason === 'item renderer0').map((warning) => warning.fields.count)).toEqual([
      1, 10,
    ]);
  });
});
