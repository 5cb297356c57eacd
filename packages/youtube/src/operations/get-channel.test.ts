import { describe, expect, it } from 'vitest';
import { channelSchema } from '../shapes/channel';
import { hasRecorded, reportMissingShared, useReplay, testClient } from '@vrs/testing/youtube-replay';

reportMissingShared('getChannel');

describe.skipIf(!hasRecorded)('getChannel over the recordings', () => {
  const fake = useReplay();

  it('resolves a handle and reads the channel header and metadata', async () => {
    const channel = channelSchema.parse(await testClient(fake).getChannel('@EEVblog'));
    expect(channel).toMatchObject({
      id: 'UC2DjFE7Xf11URZqWBigcVOQ',
      title: 'EEVblog',
      handle: '@EEVblog',
      url: 'https://www.youtube.com/@EEVblog',
      subscriberCount: 988_000,
      videoCount: 2_100,
    });
    expect(channel.description.length).toBeGreaterThan(20);
    expect(channel.thumbnails.length).toBeGreaterThan(0);
    // The authored Videos tab has no uploads (none was ever recorded): said, not hidden.
    expect(channel.recentUploads).toEqual([]);
    expect(channel.warnings).toContain('The Videos tab listed no uploads.');
  });

  it('maps a removed channel (recorded alert) to CHANNEL_NOT_FOUND', async () => {
    await expect(testClient(fake).getChannel('UCoaO4U_p7G7AwalqSbGCZOA')).rejects.toMatchObject({
      code: 'CHANNEL_NOT_FOUND',
      reason: 'not_found',
      platformReason: 'This channel was removed because it violated our Community Guidelines.',
    });
  });

  it('maps the recorded HTTP 400 for an invalid id to CHANNEL_NOT_FOUND, without retrying it', async () => {
    await expect(testClient(fake, { retries: 3 }).getChannel('DOESNT-EXIST')).rejects.toMatchObject({
      code: 'CHANNEL_NOT_FOUND',
      reason: 'not_found',
    });
    expect(fake.hits().byEndpoint.browse).toBe(1);
  });

  it('never turns an unanswered request into an empty success', async () => {
    const error = await testClient(fake)
      .getChannelPlaylists('UCxxxxxxxxxxxxxxxxxxxxxx')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'upstream_error', httpStatus: 404 });
  });
});
