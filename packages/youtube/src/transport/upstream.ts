import { HTTPClient, Innertube, NavigateAction, Parser } from 'youtubei.js';
import './youtubei-log';
import { upstreamError } from '../errors';
import type { IParsedResponse } from 'youtubei.js';
import { createResilience, type ExchangeOptions, type ResilienceOptions } from './resilience';
import { createUpstreamCall, textOf, type UpstreamFetchOptions } from './upstream-fetch';

export interface UpstreamOptions extends UpstreamFetchOptions, ResilienceOptions {}

/** What the operations use to reach YouTube; every exchange is guarded the same way. */
export interface Upstream {
  /** InnerTube request; the body's `client` names the client (youtubei.js fills in its context). */
  raw(endpoint: string, body: Record<string, unknown>, options?: ExchangeOptions): Promise<Record<string, unknown>>;
  /** The same, answered as the bytes of YouTube's JSON, for callers that look into it before decoding and parsing it. */
  rawBytes(endpoint: string, body: Record<string, unknown>): Promise<Uint8Array>;
  /** The same, parsed by youtubei.js into its node classes. */
  parsed(endpoint: string, body: Record<string, unknown>): Promise<IParsedResponse>;
  /** A plain GET (caption bodies), answered as text. */
  text(url: string): Promise<string>;
  /** A plain GET of a binary body (storyboard sheets), at most `maxBytes` long. */
  bytes(url: string, maxBytes: number): Promise<{ body: Uint8Array; contentType: string | null }>;
}

/**
 * The answer handed to youtubei.js, which reads it only through `json()` (and `text()` for errors),
 * both from the bytes already read whole: a Response over the bytes would cost a WHATWG stream (ADR 0040).
 */
class ReadResponse extends Response {
  override readonly text: () => Promise<string>;
  override readonly json: () => Promise<unknown>;
  constructor(bytes: Uint8Array, init: ResponseInit) {
    super(null, init);
    this.text = async () => textOf({ body: bytes });
    this.json = async () => JSON.parse(textOf({ body: bytes }));
  }
}

/** The host a request names (before it is pointed at a test origin): concurrency is bounded per host. */
function hostOf(input: Request | string | URL): string {
  return new URL(input instanceof Request ? input.url : String(input)).hostname;
}

/**
 * With these options Innertube.create makes no request at all (DESIGN.md). The time zone is named: left
 * out, youtubei.js asks `Intl.DateTimeFormat` for the host's, which maps ICU data (ADR 0066); the
 * UTC offset it reads from the host's clock is set to match.
 */
export async function createSession(fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>) {
  const innertube = await Innertube.create({
    retrieve_player: false,
    generate_session_locally: true,
    retrieve_innertube_config: false,
    enable_session_cache: false,
    lang: 'en',
    location: 'GB',
    timezone: 'UTC',
    fetch,
  });
  innertube.session.context.client.utcOffsetMinutes = 0;
  return innertube;
}

/** What youtubei.js sends to one endpoint as one client, but the payload: the URL, the headers and the body's `context`. */
interface RequestTemplate {
  url: string;
  host: string;
  headers: Record<string, string>;
  context: unknown;
}

/**
 * The request youtubei.js builds for `endpoint` as `client`, caught by a fetch that only keeps it:
 * youtubei.js stays the authority on what each InnerTube client sends, and since the session's
 * context and headers never change, one template per endpoint and client serves every later request.
 */
async function learnTemplate(session: Innertube['session'], endpoint: string, client: unknown): Promise<RequestTemplate> {
  let kept: { url: string; headers: Headers; body: string } | undefined;
  const keep = async (input: Request | string | URL, init?: RequestInit) => {
    kept = { url: input instanceof Request ? input.url : String(input), headers: new Headers(init?.headers), body: String(init?.body) };
    return new Response('{}');
  };
  await new HTTPClient(session, undefined, keep).fetch(endpoint, {
    method: 'POST',
    body: JSON.stringify(client === undefined ? {} : { client }),
    headers: { 'Content-Type': 'application/json' },
  });
  if (!kept) throw new Error(`youtubei.js built no request for ${endpoint}`);
  return {
    url: kept.url,
    host: new URL(kept.url).hostname,
    headers: Object.fromEntries(kept.headers),
    context: (JSON.parse(kept.body) as { context: unknown }).context,
  };
}

export function createUpstream(options: UpstreamOptions): Upstream {
  const call = createUpstreamCall(options);
  const guarded = createResilience(options);

  // The body is read inside the guarded attempt, so a stalled body counts against the timeout
  // and a retry re-sends instead of re-reading a consumed stream.
  const fetchForYoutubei = (input: Request | string | URL, init?: RequestInit) =>
    guarded(hostOf(input), async (signal) => {
      const answer = await call(input, init, signal);
      return new ReadResponse(answer.body, { status: answer.status, headers: answer.headers });
    });

  const session = createSession(fetchForYoutubei);
  const templates = new Map<string, Promise<RequestTemplate>>();
  const templateOf = (endpoint: string, client: unknown) => {
    const key = `${endpoint}\n${String(client)}`;
    const template = templates.get(key) ?? session.then((innertube) => learnTemplate(innertube.session, endpoint, client));
    templates.set(key, template);
    return template;
  };

  // The payload goes out as given, with the template's context beside it, as youtubei.js sends it.
  async function rawBytes(endpoint: string, body: Record<string, unknown>, options?: ExchangeOptions): Promise<Uint8Array> {
    const { client, ...payload } = body;
    const template = await templateOf(endpoint, client);
    const requestBody = JSON.stringify({ ...payload, context: template.context });
    const answer = await guarded(
      template.host,
      (signal) => call(template.url, { method: 'POST', headers: template.headers, body: requestBody }, signal),
      options,
    );
    return answer.body;
  }

  const raw: Upstream['raw'] = async (endpoint, body, options) =>
    JSON.parse(textOf({ body: await rawBytes(endpoint, body, options) })) as Record<string, unknown>;

  return {
    rawBytes,
    raw,
    // Sent as `raw` sends it, then parsed as youtubei.js's `actions.execute` parses it, following a
    // browse answer that only names where to navigate the same way.
    async parsed(endpoint, body) {
      const page = Parser.parseResponse(await raw(endpoint, body));
      const navigate = 'on_response_received_actions' in page ? page.on_response_received_actions?.[0] : undefined;
      if (navigate?.type !== 'navigateAction') return page;
      const innertube = await session;
      return navigate.as(NavigateAction).endpoint.call(innertube.actions, { parse: true });
    },
    text: (url) => guarded(hostOf(url), async (signal) => textOf(await call(url, { method: 'GET' }, signal))),
    bytes: (url, maxBytes) =>
      guarded(hostOf(url), async (signal) => {
        const answer = await call(url, { method: 'GET' }, signal);
        if (answer.body.byteLength > maxBytes) {
          throw upstreamError('upstream_error', `YouTube answered ${answer.body.byteLength} bytes, more than the ${maxBytes} allowed`, {
            transient: false,
          });
        }
        return { body: answer.body, contentType: answer.headers.get('content-type') };
      }),
  };
}
