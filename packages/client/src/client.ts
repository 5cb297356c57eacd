import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/api';
import { ApiError, apiErrorOf, metaOf, type ResponseMeta } from './api-error';
import { jsonOrText } from './event-stream';

export interface VrsClientOptions {
  /** The API's origin, e.g. `https://api.example.com` (the `/v1` prefix is added here). */
  baseUrl: string;
  /** An API key (`aty_…`) or a CLI session token (`atc_…`), sent as `Authorization: Bearer`. */
  token?: string;
  /** Extra headers on every request (e.g. `X-Request-Id`, or `X-Demo-User` against a demo server). */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

/** A successful answer: the typed body and what the headers said. */
export interface ApiResult<T> {
  data: T;
  meta: ResponseMeta;
}

/** What a call of `api` answers (openapi-fetch's result), as `send` takes it. */
export type FetchResult<T> = { data?: T; error?: unknown; response: Response };

export interface VrsClient {
  /** The typed openapi-fetch client: `api.GET('/projects', {params: {query: {limit: 5}}})`. */
  api: Client<paths>;
  /** Awaits a call of `api`, answering `{data, meta}` or throwing an {@link ApiError}. */
  send<T>(call: Promise<FetchResult<T>>): Promise<ApiResult<Exclude<T, undefined>>>;
  /** A raw request under `/v1` (file downloads, event streams): the Response when 2xx, else an {@link ApiError}. */
  raw(path: string, init?: RequestInit): Promise<Response>;
  readonly baseUrl: string;
}

/** A failure before any response (refused connection, DNS, reset) is still an ApiError, with status 0. */
function networkError(error: unknown): ApiError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error).message;
  return new ApiError({ status: 0, code: 'NETWORK_ERROR', message: `Could not reach the API (${reason}).`, cause: error });
}

export function createVrsClient(options: VrsClientOptions): VrsClient {
  const origin = options.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const api = createClient<paths>({ baseUrl: `${origin}/v1`, headers, fetch: (request) => fetchImpl(request) });
  api.use({ onError: ({ error }) => networkError(error) });

  return {
    api,
    baseUrl: origin,
    async send<T>(call: Promise<FetchResult<T>>) {
      const { data, error, response } = await call;
      if (!response.ok) throw apiErrorOf(response, error);
      return { data: data as Exclude<T, undefined>, meta: metaOf(response) };
    },
    async raw(path, init = {}) {
      let response: Response;
      try {
        response = await fetchImpl(`${origin}/v1${path}`, {
          ...init,
          headers: { ...headers, ...(init.headers as Record<string, string>) },
        });
      } catch (error) {
        throw networkError(error);
      }
      if (response.ok) return response;
      // A body that is not JSON is reported as an unexpected response.
      throw apiErrorOf(response, jsonOrText(await response.text()));
    },
  };
}
