import { describe, expect, it, vi } from 'vitest';
import { defaultClientOptions } from '../client-options';
import { createSession, createUpstream } from './upstream';

interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** A fetch that answers `{}` and keeps what it was asked, the way our exchange and youtubei.js hand it over. */
function recordingFetch(sent: SentRequest[]) {
  return async (input: Request | string | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : undefined;
    sent.push({
      url: request ? request.url : String(input),
      method: init?.method ?? request?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers ?? request?.headers)),
      body: String(init?.body),
    });
    return new Response('{"answered":true}', { headers: { 'content-type': 'application/json' } });
  };
}

/** Each session makes up its own visitor id and picks a browser's user agent: name them alike on both sides before comparing. */
function anonymous(request: SentRequest): SentRequest {
  const visitor = request.headers['x-goog-visitor-id']!;
  expect(visitor).toBeTruthy();
  const anonymous = (text: string) =>
    text
      .split(visitor)
      .join('VISITOR')
      .replace(/Mozilla\/5\.0 [^"]*/g, 'BROWSER');
  return { ...request, headers: JSON.parse(anonymous(JSON.stringify(request.headers))), body: anonymous(request.body) };
}

// Every endpoint and client the operations send requests to, raw (fetch-player.ts, get-video.ts,
// comments-pages.ts) or parsed (search.ts, channel-pages.ts, get-playlist.ts, get-channel-playlists.ts).
const rawRequests: [string, Record<string, unknown>][] = [
  [
    '/reel/reel_item_watch?$fields=playerResponse',
    {
      client: 'ANDROID',
      playerRequest: { videoId: 'dQw4w9WgXcQ', cpn: 'abcdefghijklmnop', contentCheckOk: true, racyCheckOk: true },
      disablePlayerResponse: false,
    },
  ],
  [
    '/player',
    {
      client: 'TV_EMBEDDED',
      videoId: 'dQw4w9WgXcQ',
      cpn: 'abcdefghijklmnop',
      contentCheckOk: true,
      racyCheckOk: true,
      playbackContext: { contentPlaybackContext: { referer: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } },
    },
  ],
  [
    '/player?$fields=microformat,playabilityStatus,storyboards,videoDetails',
    { videoId: 'dQw4w9WgXcQ', contentCheckOk: true, racyCheckOk: true },
  ],
  ['/player?$fields=microformat,videoDetails.thumbnail.thumbnails,videoDetails.videoId', { videoId: 'dQw4w9WgXcQ', racyCheckOk: true }],
  ['/next', { videoId: 'dQw4w9WgXcQ', contentCheckOk: true, racyCheckOk: true }],
  ['/next', { continuation: 'Eg0SC2RRdzR3OVdnWGNR' }],
  ['/search', { query: 'cold brew', params: 'EgIQAQ%3D%3D' }],
  ['/search', { continuation: 'EpMDEgljb2xkIGJyZXca' }],
  ['/browse', { browseId: 'UCuAXFkgsw1L7xaCfnd5JJOw', params: 'EgZ2aWRlb3PyBgQKAjoA' }],
  ['/browse', { continuation: '4qmFsgKrCBIYVUN1QVhGa2dzdzFMN3hhQ2ZuZDVKSk93' }],
  ['/navigation/resolve_url', { url: 'https://www.youtube.com/@example' }],
];

describe('raw InnerTube requests', () => {
  it.each(rawRequests)('%s goes out as youtubei.js sends it: same URL, headers and body', async (endpoint, body) => {
    const ours: SentRequest[] = [];
    const upstream = createUpstream({ ...defaultClientOptions, fetch: recordingFetch(ours) });
    // Twice: the second request is built from what the first one learnt.
    expect(await upstream.raw(endpoint, body)).toEqual({ answered: true });
    expect(await upstream.raw(endpoint, { ...body })).toEqual({ answered: true });

    const theirs: SentRequest[] = [];
    const innertube = await createSession(recordingFetch(theirs));
    await innertube.actions.execute(endpoint, { ...body, parse: false });

    expect(ours).toHaveLength(2);
    expect(theirs).toHaveLength(1);
    for (const request of ours) expect(anonymous(request)).toEqual(anonymous(theirs[0]!));
    // The context is the client's: a client the payload names is not sent as a payload field.
    const sent = JSON.parse(ours[0]!.body) as { client?: unknown; context: { client: { clientName: string } } };
    expect(sent.client).toBeUndefined();
    expect(sent.context.client.clientName).toBe(
      body.client === 'TV_EMBEDDED' ? 'TVHTML5_SIMPLY_EMBEDDED_PLAYER' : ((body.client as string | undefined) ?? 'WEB'),
    );
  });

  it('keeps one session: every client and endpoint carries the same visitor id', async () => {
    const sent: SentRequest[] = [];
    const upstream = createUpstream({ ...defaultClientOptions, fetch: recordingFetch(sent) });
    for (const [endpoint, body] of rawRequests) await upstream.raw(endpoint, body);
    expect(new Set(sent.map((request) => request.headers['x-goog-visitor-id'])).size).toBe(1);
  });
});

describe('the session', () => {
  it('names UTC as its time zone, offset 0, in any host time zone, without asking Intl', async () => {
    const hostZone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    const dateTimeFormat = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      const innertube = await createSession(recordingFetch([]));
      expect(innertube.session.context.client).toMatchObject({ timeZone: 'UTC', utcOffsetMinutes: 0 });
      expect(dateTimeFormat).not.toHaveBeenCalled();
    } finally {
      dateTimeFormat.mockRestore();
      if (hostZone === undefined) delete process.env.TZ;
      else process.env.TZ = hostZone;
    }
  });
});

describe('parsed InnerTube answers', () => {
  it('follows a browse answer that only names where to navigate, as youtubei.js does', async () => {
    const answers = [
      { onResponseReceivedActions: [{ navigateAction: { endpoint: { browseEndpoint: { browseId: 'UCredirected' } } } }] },
      { header: { pageHeaderRenderer: { pageTitle: 'Redirected' } } },
    ];
    const sent: string[] = [];
    const upstream = createUpstream({
      ...defaultClientOptions,
      fetch: async (_input, init) => {
        sent.push(String(init?.body));
        return new Response(JSON.stringify(answers.shift() ?? {}), { headers: { 'content-type': 'application/json' } });
      },
    });
    const page = await upstream.parsed('/browse', { browseId: 'UCasked' });
    expect(sent.map((body) => (JSON.parse(body) as { browseId?: string }).browseId)).toEqual(['UCasked', 'UCredirected']);
    // The second answer's, not the navigation's.
    expect('on_response_received_actions' in page).toBe(false);
    expect('header' in page).toBe(true);
  });
});
