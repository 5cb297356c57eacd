import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectDir } from './fixture-dirs';
import { startFakeYouTube, type FakeYouTube } from './server';

describe('fake YouTube count overrides', () => {
  let fake: FakeYouTube;
  beforeAll(async () => {
    fake = await startFakeYouTube({ replayDirs: [projectDir], log: () => undefined });
  });
  afterAll(() => fake.close());

  const player = async () => {
    const response = await fetch(`${fake.url}/youtubei/v1/reel/reel_item_watch?$fields=playerResponse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        context: { client: { clientName: 'ANDROID' } },
        playerRequest: { videoId: 'coldBrew001' },
        disablePlayerResponse: false,
      }),
    });
    return (
      (await response.json()) as {
        playerResponse: { videoDetails: { viewCount: string }; microformat: { playerMicroformatRenderer: { likeCount: string } } };
      }
    ).playerResponse;
  };

  it('answers the overridden counts until reset', async () => {
    expect((await player()).videoDetails.viewCount).toBe('48000');
    fake.setCounts({ videoId: 'coldBrew001', viewCount: 60_000, likeCount: 2_900 });
    const moved = await player();
    expect(moved.videoDetails.viewCount).toBe('60000');
    expect(moved.microformat.playerMicroformatRenderer.likeCount).toBe('2900');
    fake.reset();
    expect((await player()).videoDetails.viewCount).toBe('48000');
  });

  it("moves the comment count /next's comments panel shows, and only that video's", async () => {
    const next = async (videoId: string) => {
      const response = await fetch(`${fake.url}/youtubei/v1/next?prettyPrint=false`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ context: { client: { clientName: 'WEB' } }, videoId, contentCheckOk: true, racyCheckOk: true }),
      });
      expect(response.status).toBe(200);
      const answer = (await response.json()) as {
        engagementPanels: {
          engagementPanelSectionListRenderer: {
            header: { engagementPanelTitleHeaderRenderer: { contextualInfo: { runs: { text: string }[] } } };
          };
        }[];
      };
      return answer.engagementPanels[0]!.engagementPanelSectionListRenderer.header.engagementPanelTitleHeaderRenderer.contextualInfo
        .runs[0]!.text;
    };
    const [before, otherBefore] = [await next('coldBrew001'), await next('coldBrew002')];
    fake.setCounts({ videoId: 'coldBrew001', commentCount: 4_321 });
    expect(await next('coldBrew001')).toBe('4321');
    expect(await next('coldBrew002')).toBe(otherBefore);
    // A comment count override leaves the player's views alone.
    expect((await player()).videoDetails.viewCount).toBe('48000');
    fake.reset();
    expect(await next('coldBrew001')).toBe(before);
  });
});
