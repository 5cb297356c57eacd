import { fetch as undiciFetch, ProxyAgent, type Dispatcher } from 'undici';
import { upstreamError, type YouTubeError } from '../errors';
import { rewriteToOrigin } from './origin-rewrite';

export type FetchFunction = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface UpstreamFetchOptions {
  origin: string;
  proxyUrl?: string;
  /** Replaces the network fetch (tests); the proxy is then the caller's business. */
  fetch?: FetchFunction;
}

/** One HTTP exchange, cancellable, already pointed at the right origin. */
export type UpstreamCall = (input: Request | string | URL, init: RequestInit | undefined, signal: AbortSignal) => Promise<Response>;

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
  const dispatcher: Dispatcher | undefined = options.proxyUrl ? new ProxyAgent(options.proxyUrl) : undefined;
  const send: FetchFunction =
    options.fetch ??
    ((input, init) =>
      undiciFetch(
        input as string,
        { ...(init as object), dispatcher } as Parameters<typeof undiciFetch>[1],
      ) as unknown as Promise<Response>);

  return async (input, init, signal) => {
    const request = input instanceof Request ? input : undefined;
    const url = rewriteToOrigin(new URL(request ? request.url : String(input)), origin);
    const method = init?.method ?? request?.method ?? 'GET';
    const headers = new Headers(init?.headers ?? request?.headers);
    const body = init?.body ?? (request && method !== 'GET' && method !== 'HEAD' ? await request.text() : undefined);
    let response: Response;
    try {
      response = await send(url.toString(), { method, headers, body, signal, redirect: 'follow' });
    } catch (error) {
      if (signal.aborted) throw error;
      throw upstreamError('upstream_error', `Network error talking to YouTube: ${(error as Error).message}`, { cause: error });
    }
    if (!response.ok) throw httpStatusError(response.status, url.toString(), await response.text(), response.headers.get('retry-after'));
    return response;
  };
}
