import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate as inflateZlib } from 'node:zlib';
import { Agent, interceptors, ProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';
import { upstreamError, type YouTubeError } from '../errors';
import { rewriteToOrigin } from './origin-rewrite';

export type FetchFunction = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface UpstreamFetchOptions {
  /** Where InnerTube and caption requests go; tests pass the fake upstream's URL. */
  origin: string;
  /** Egress proxy for every request (http:// or https:// proxy URL). */
  proxyUrl?: string;
  /** Replaces the network fetch (tests); the proxy is then the caller's business. */
  fetch?: FetchFunction;
}

/**
 * A 2xx answer, its body read whole as bytes: youtubei.js decodes and parses them itself, so
 * decoding here too would decode every page twice (bench/comments' profile, ADR 0038).
 */
export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

/** The answer's body as UTF-8 text. */
export function textOf(answer: Pick<UpstreamAnswer, 'body'>): string {
  return Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength).toString('utf8');
}

/** One HTTP exchange, cancellable, already pointed at the right origin. */
export type UpstreamCall = (input: Request | string | URL, init: RequestInit | undefined, signal: AbortSignal) => Promise<UpstreamAnswer>;

type Send = (
  url: string,
  init: { method: string; headers: Headers; body: RequestInit['body']; signal: AbortSignal },
) => Promise<UpstreamAnswer>;

function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * The exchange over undici's `request`, not its `fetch`, whose streams and cloning cost more CPU than
 * the exchange itself (ADR 0038). Redirects, compression and decoding stay as fetch does them.
 */
function requestSender(proxyUrl: string | undefined): Send {
  const base: Dispatcher = proxyUrl ? new ProxyAgent(proxyUrl) : new Agent();
  const dispatcher = base.compose(interceptors.redirect({ maxRedirections: 5 }));
  return async (url, { method, headers, body, signal }) => {
    if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, deflate, br');
    const answer = await undiciRequest(url, {
      method: method as Dispatcher.HttpMethod,
      headers: Object.fromEntries(headers),
      body: body as string | Uint8Array | undefined,
      signal,
      dispatcher,
    });
    const responseHeaders = headersOf(answer.headers);
    const content = await decodedBody(Buffer.from(await answer.body.arrayBuffer()), responseHeaders);
    return { status: answer.statusCode, headers: responseHeaders, body: content };
  };
}

const inflate = { gzip: promisify(gunzip), 'x-gzip': promisify(gunzip), deflate: promisify(inflateZlib), br: promisify(brotliDecompress) };

/**
 * The body as fetch would give it: decoded by its Content-Encoding (undici's own decompress
 * interceptor is experimental and warns on every start), on the thread pool, and the encoding
 * headers dropped since they no longer describe it.
 */
async function decodedBody(raw: Buffer, headers: Headers): Promise<Uint8Array> {
  const encoding = headers.get('content-encoding')?.trim().toLowerCase();
  if (!encoding || encoding === 'identity' || raw.length === 0) return new Uint8Array(raw);
  const decode = inflate[encoding as keyof typeof inflate];
  if (!decode) return new Uint8Array(raw);
  const decoded = await decode(raw);
  headers.delete('content-encoding');
  headers.delete('content-length');
  return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength);
}

/** A caller's fetch (tests), read whole like the request sender's answers. */
function fetchSender(fetchFunction: FetchFunction): Send {
  return async (url, init) => {
    const response = await fetchFunction(url, { ...init, redirect: 'follow' });
    return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
  };
}

function bodySnippet(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMsOf(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const ms = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** Maps an HTTP failure to the typed error the table in issue 3 asks for. */
export function httpStatusError(status: number, url: string, body: string, retryAfter: string | null = null): YouTubeError {
  const detail = `${status} from ${new URL(url).pathname}: ${bodySnippet(body)}`;
  const retryAfterMs = retryAfterMsOf(retryAfter);
  if (status === 429)
    return upstreamError('rate_limited', `YouTube rate-limited the request (${detail})`, { httpStatus: status, retryAfterMs });
  if (status === 503 && retryAfterMs !== undefined)
    return upstreamError('upstream_error', `YouTube failed (${detail})`, { httpStatus: status, retryAfterMs });
  if (status >= 500) return upstreamError('upstream_error', `YouTube failed (${detail})`, { httpStatus: status });
  return upstreamError('upstream_error', `YouTube refused the request (${detail})`, { httpStatus: status, transient: false });
}

/**
 * youtubei.js calls its fetch as `fetch(Request, init)`, where `init` carries the body and the
 * headers it computed: read method, headers and body from `init` first, the URL from the Request.
 * Non-2xx answers become typed errors here, so neither youtubei.js nor the operations see them
 * as responses.
 */
export function createUpstreamCall(options: UpstreamFetchOptions): UpstreamCall {
  const origin = new URL(options.origin);
  const send = options.fetch ? fetchSender(options.fetch) : requestSender(options.proxyUrl);

  return async (input, init, signal) => {
    const request = input instanceof Request ? input : undefined;
    const url = rewriteToOrigin(new URL(request ? request.url : String(input)), origin);
    const method = init?.method ?? request?.method ?? 'GET';
    const headers = new Headers(init?.headers ?? request?.headers);
    const body = init?.body ?? (request && method !== 'GET' && method !== 'HEAD' ? await request.text() : undefined);
    let answer: UpstreamAnswer;
    try {
      answer = await send(url.toString(), { method, headers, body, signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw upstreamError('upstream_error', `Network error talking to YouTube: ${(error as Error).message}`, { cause: error });
    }
    if (answer.status < 200 || answer.status > 299)
      throw httpStatusError(answer.status, url.toString(), textOf(answer), answer.headers.get('retry-after'));
    return answer;
  };
}
