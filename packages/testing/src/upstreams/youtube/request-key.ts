/**
 * What identifies an InnerTube or caption request for replay: the endpoint, the client that asks,
 * the `$fields` mask and the few body or query fields that select the content. Everything else a
 * client sends (cpn, versions, visitor data, signatures, `ei`) changes from run to run and is ignored.
 */
export interface RequestKey {
  endpoint: string;
  clientName: string | null;
  fields: string | null;
  keys: Record<string, string>;
}

export interface RawRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

// youtubei.js and the web player send the numeric client id in X-YouTube-Client-Name; the body's
// context names the client by name. Only the clients that appear in recordings or that our
// client uses need a name here.
const clientNamesById: Record<string, string> = {
  '1': 'WEB',
  '2': 'MWEB',
  '3': 'ANDROID',
  '5': 'IOS',
  '7': 'TVHTML5',
  '28': 'ANDROID_VR',
  '85': 'TVHTML5_SIMPLY_EMBEDDED_PLAYER',
  '101': 'VISIONOS',
};

const innertubePrefix = '/youtubei/v1/';
const captionKeys = ['v', 'lang', 'kind', 'tlang', 'fmt', 'exp'] as const;

export function endpointOf(pathname: string): string | null {
  if (pathname.startsWith(innertubePrefix)) return pathname.slice(innertubePrefix.length).replace(/\/+$/, '');
  if (pathname === '/api/timedtext') return 'timedtext';
  return null;
}

/** Tokens and params are compared decoded: recordings keep `%3D`, responses sometimes `=`. */
export function normalizeToken(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function headerValue(headers: RawRequest['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function parseJsonBody(body: string): Record<string, unknown> {
  if (!body) return {};
  const parsed: unknown = JSON.parse(body);
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function innertubeKeys(body: Record<string, unknown>): Record<string, string> {
  const keys: Record<string, string> = {};
  const playerRequest = body.playerRequest as Record<string, unknown> | undefined;
  const videoId = str(body.videoId) ?? str(playerRequest?.videoId);
  if (videoId) keys.videoId = videoId;
  const browseId = str(body.browseId);
  if (browseId) keys.browseId = browseId;
  const params = str(body.params);
  if (params) keys.params = normalizeToken(params);
  const continuation = str(body.continuation);
  if (continuation) keys.continuation = normalizeToken(continuation);
  const query = str(body.query);
  if (query) keys.query = query;
  const url = str(body.url);
  if (url) keys.url = url;
  return keys;
}

/** Derives the replay key of a request; throws when the body is not the JSON InnerTube expects. */
export function requestKeyOf(request: RawRequest): RequestKey | null {
  const url = new URL(request.url, 'http://replay.invalid');
  const endpoint = endpointOf(url.pathname);
  if (!endpoint) return null;
  const fields = url.searchParams.get('$fields');
  if (endpoint === 'timedtext') {
    const keys: Record<string, string> = {};
    for (const name of captionKeys) {
      const value = url.searchParams.get(name);
      if (value) keys[name] = value;
    }
    return { endpoint, clientName: null, fields, keys };
  }
  const body = parseJsonBody(request.body);
  const context = body.context as { client?: { clientName?: unknown } } | undefined;
  const headerClient = headerValue(request.headers, 'x-youtube-client-name');
  const clientName = str(context?.client?.clientName) ?? (headerClient ? (clientNamesById[headerClient] ?? headerClient) : null);
  return { endpoint, clientName, fields, keys: innertubeKeys(body) };
}

/** One string per distinct key, used to group recordings that answer the same request. */
export function signatureOf(key: RequestKey, fields: string | null = key.fields): string {
  const sortedKeys = Object.keys(key.keys)
    .sort()
    .map((name) => [name, key.keys[name]]);
  return JSON.stringify([key.endpoint, key.clientName, fields, sortedKeys]);
}
