import { describe, expect, it } from 'vitest';
import { hasRecorded, hasSynthetic, projectDir, recordedDir, reportMissingShared, syntheticDir } from './fixture-dirs';
import { loadRecordings } from './recordings';

reportMissingShared('fake-youtube recordings');

describe('loading recordings', () => {
  it('loads the project fixtures with zero unparsable files', () => {
    const report = loadRecordings([projectDir]);
    expect(report.unparsable).toEqual([]);
    expect(report.recordings.length).toBeGreaterThan(0);
  });

  it.skipIf(!hasRecorded || !hasSynthetic)('loads every shared recording with zero unparsable files and nothing skipped', () => {
    const report = loadRecordings([recordedDir, syntheticDir, projectDir]);
    expect(report.unparsable).toEqual([]);
    expect(report.skipped).toEqual([]);
    const newpipe = report.recordings.filter((r) => r.format === 'newpipe');
    // 52 NewPipe exchanges + 9 synthetic caption exchanges, all in the NewPipe wrapper.
    expect(newpipe).toHaveLength(61);
    expect(report.recordings.every((r) => r.key.endpoint.length > 0)).toBe(true);
  });

  it.skipIf(!hasRecorded)('decodes NewPipe request bodies and reads their keys', () => {
    const report = loadRecordings([recordedDir]);
    const replies = report.recordings.find((r) => r.id.endsWith('comments/xaQJbozY_Is.3_next_replies.json'));
    expect(replies?.key).toMatchObject({ endpoint: 'next', clientName: 'WEB', fields: null });
    expect(replies?.key.keys.continuation).toMatch(/^Eg0SC3hhUUpib3pZX0lz/);
    expect(replies?.key.keys.continuation).toMatch(/==$/); // %3D%3D decoded
    const reel = report.recordings.find((r) => r.id.endsWith('player/rCAS2eD-mcw.android_reel_item_watch.json'));
    expect(reel?.key).toMatchObject({
      endpoint: 'reel/reel_item_watch',
      clientName: 'ANDROID',
      fields: 'playerResponse',
      keys: { videoId: 'rCAS2eD-mcw' },
    });
    expect(reel?.recordedAt).toBe(Date.parse('Sun, 07 Jun 2026 21:18:20 GMT'));
  });

  it('skips index entries whose body file is in no replay dir, without calling them unparsable', () => {
    const report = loadRecordings([projectDir]);
    expect(report.unparsable).toEqual([]);
    expect(report.skipped.map((s) => s.file)).toContain('youtube/youtube-transcript-api.index.json#0');
  });
});
