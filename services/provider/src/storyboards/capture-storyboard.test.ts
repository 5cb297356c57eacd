import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hasRecorded, reportMissingShared, testClient, useReplay } from '@vrs/testing/youtube-replay';
import { captureStoryboard } from './capture-storyboard';
import { convertSheet, SheetConversionError } from './convert-sheet';

reportMissingShared('storyboard capture');

const defaults = { maxSheets: 3, timeoutMs: 5_000 };
const isWebp = (data: Buffer) => data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP';

/** A JPEG sheet of `columns × rows` flat frames, as sharp makes it from raw pixels. */
async function jpegSheet(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) pixels[i] = (i / 3) % width < width / 2 ? 200 : 20;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer();
}

describe('converting a sheet with sharp', () => {
  it('turns a JPEG into a WebP within the edge bound, reporting both sizes and byte counts', async () => {
    const jpeg = await jpegSheet(800, 450);
    const sheet = await convertSheet(jpeg, { maxEdge: 400, maxBytes: 100_000 });
    expect(isWebp(sheet.webp)).toBe(true);
    expect(sheet).toMatchObject({
      width: 400,
      height: 225,
      sourceWidth: 800,
      sourceHeight: 450,
      inputFormat: 'jpeg',
      inputBytes: jpeg.byteLength,
    });
    expect(sheet.outputBytes).toBe(sheet.webp.byteLength);
    const decoded = await sharp(sheet.webp).metadata();
    expect([decoded.format, decoded.width, decoded.height]).toEqual(['webp', 400, 225]);
  });

  it('never enlarges a small sheet', async () => {
    const sheet = await convertSheet(await jpegSheet(160, 90), { maxEdge: 1280, maxBytes: 100_000 });
    expect([sheet.width, sheet.height]).toEqual([160, 90]);
  });

  it('refuses bytes that are no image (decode_error) and a sheet that stays over the byte bound (budget)', async () => {
    await expect(convertSheet(Buffer.from('not an image at all'), { maxEdge: 100, maxBytes: 100_000 })).rejects.toMatchObject({
      kind: 'decode_error',
    });
    const tooBig = await convertSheet(await jpegSheet(800, 450), { maxEdge: 800, maxBytes: 10 }).catch((error: unknown) => error);
    expect(tooBig).toBeInstanceOf(SheetConversionError);
    expect(tooBig).toMatchObject({ kind: 'budget' });
  });
});

describe.skipIf(!hasRecorded)('capturing the storyboard of a recorded video through the fake upstream', () => {
  const fake = useReplay();

  it('reads the recorded spec through the ANDROID client, fetches the largest level’s sheets and converts them', async () => {
    const capture = await captureStoryboard(testClient(fake, { retries: 0 }), { videoId: 'rCAS2eD-mcw', ...defaults });
    expect(capture).toMatchObject({ videoId: 'rCAS2eD-mcw', outcome: 'success', capture: 'available', status: 200, profile: 'ANDROID' });
    expect(capture.failureKind).toBeUndefined();
    // Level 2 of the recorded spec: 160×90 frames, 5×5 a sheet, 70 frames every 5 s → 3 sheets.
    expect(capture.spec).toEqual({
      levelCount: 3,
      level: 2,
      frameWidth: 160,
      frameHeight: 90,
      frameCount: 70,
      columns: 5,
      rows: 5,
      intervalMs: 5000,
      sheetCount: 3,
      durationMs: 343_000,
    });
    expect(capture.sheets.map((sheet) => [sheet.index, sheet.width, sheet.height, sheet.firstFrame, sheet.frameCount])).toEqual([
      [0, 800, 450, 0, 25],
      [1, 800, 450, 25, 25],
      [2, 800, 450, 50, 20],
    ]);
    for (const sheet of capture.sheets) {
      const webp = Buffer.from(sheet.webpBase64, 'base64');
      expect(isWebp(webp)).toBe(true);
      expect(sheet.outputBytes).toBe(webp.byteLength);
      expect(sheet.inputBytes).toBeGreaterThan(0);
    }
    expect(capture.sheets[2]!.frameTimesMs.at(-1)).toBe(345_000);
    expect(fake.hits().byEndpoint.storyboard).toBe(3);

    const stages = capture.events.map((event) => `${event.stage}:${event.outcome}`);
    expect(stages.slice(0, 2)).toEqual(['player:selected', 'spec:parsed']);
    expect(stages.filter((stage) => stage === 'sheet_fetch:fetched')).toHaveLength(3);
    expect(stages.filter((stage) => stage === 'convert:converted')).toHaveLength(3);
    expect(capture.events[0]).toMatchObject({ profile: 'ANDROID', playabilityStatus: 'OK' });
    expect(capture.events[1]).toMatchObject({
      specState: 'valid',
      candidateIndex: 2,
      candidateCount: 3,
      sheetCount: 3,
      width: 160,
      height: 90,
    });
    const converted = capture.events.find((event) => event.stage === 'convert')!;
    expect(converted).toMatchObject({
      inputFormat: 'jpeg',
      outputFormat: 'webp',
      sourceWidth: 800,
      sourceHeight: 450,
      width: 800,
      height: 450,
    });
  });

  it('fetches at most maxSheets, spread over the level', async () => {
    const capture = await captureStoryboard(testClient(fake, { retries: 0 }), { videoId: 'rCAS2eD-mcw', maxSheets: 2, timeoutMs: 5_000 });
    expect(capture.sheets.map((sheet) => sheet.index)).toEqual([0, 2]);
  });

  it('fails with http_error and the status when every sheet answers an error, recording each failed fetch', async () => {
    fake.addFault({ match: { endpoint: 'storyboard', videoId: 'rCAS2eD-mcw' }, kind: 'status', status: 403 });
    const capture = await captureStoryboard(testClient(fake, { retries: 0 }), { videoId: 'rCAS2eD-mcw', ...defaults });
    expect(capture).toMatchObject({ outcome: 'failure', capture: 'available', failureKind: 'http_error', status: 403, sheets: [] });
    const failed = capture.events.filter((event) => event.stage === 'sheet_fetch');
    expect(failed.map((event) => [event.outcome, event.status])).toEqual([
      ['failed', 403],
      ['failed', 403],
      ['failed', 403],
    ]);
  });

  it('still succeeds with the sheets it could read when one sheet fails', async () => {
    fake.addFault({ match: { endpoint: 'storyboard', sheet: 'M1' }, kind: 'status', status: 500 });
    const capture = await captureStoryboard(testClient(fake, { retries: 0 }), { videoId: 'rCAS2eD-mcw', ...defaults });
    expect(capture.outcome).toBe('success');
    expect(capture.sheets.map((sheet) => sheet.index)).toEqual([0, 2]);
    expect(capture.events).toContainEqual(
      expect.objectContaining({ stage: 'sheet_fetch', outcome: 'failed', candidateIndex: 1, status: 500 }),
    );
  });

  it('ends a capture whose sheets hang at its deadline with failureKind timeout', async () => {
    fake.addFault({ match: { endpoint: 'storyboard' }, kind: 'timeout' });
    // The client's own timeout is beyond the test's: only the capture's deadline can end it in time.
    const capture = await captureStoryboard(testClient(fake, { retries: 0, timeoutMs: 600_000 }), {
      videoId: 'rCAS2eD-mcw',
      maxSheets: 3,
      timeoutMs: 400,
    });
    expect(capture).toMatchObject({ outcome: 'failure', failureKind: 'timeout', sheets: [] });
    expect(capture.elapsedMs).toBeGreaterThanOrEqual(400);
  });

  it('fails with timeout or http_error when the player itself fails, and skips a video that does not play', async () => {
    fake.addFault({ match: { endpoint: 'reel/reel_item_watch', videoId: 'rCAS2eD-mcw' }, kind: 'status', status: 503 });
    const failed = await captureStoryboard(testClient(fake, { retries: 0 }), { videoId: 'rCAS2eD-mcw', ...defaults });
    expect(failed).toMatchObject({ outcome: 'failure', capture: 'unavailable', failureKind: 'http_error', status: 503 });
    // Read from the capture's own record: on a loaded machine the fake may still be receiving sheet
    // requests another case abandoned at its deadline, so its hit counts cannot say.
    expect(failed.events.filter((event) => event.stage === 'sheet_fetch')).toEqual([]);

    const restricted = await captureStoryboard(testClient(fake, { retries: 0 }), { videoId: '8VajtrESJzA', ...defaults });
    expect(restricted).toMatchObject({ outcome: 'skipped', capture: 'unavailable', sheets: [] });
    expect(restricted.events[0]).toMatchObject({ stage: 'player', profile: 'ANDROID', outcome: 'refused', code: 'VIDEO_PRIVATE' });
  });
});
