import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, type ApiResult } from '@vrs/client';

/** A successful call: the text a model reads and the REST response's credits and request id in `_meta`. */
export function toolResult({ meta }: ApiResult<unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], _meta: { requestId: meta.requestId, ...(meta.credits ? { credits: meta.credits } : {}) } };
}

/**
 * The API's error envelope as an MCP tool error: the model sees `CODE: message` and can act on it;
 * clients read the whole envelope in `_meta.error`. Anything else is a bug and is thrown to the SDK.
 */
export function toolError(error: unknown): CallToolResult {
  if (!(error instanceof ApiError)) throw error;
  const credits = error.meta?.credits;
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}${error.requestId ? ` (requestId ${error.requestId})` : ''}` }],
    _meta: {
      error: { code: error.code, message: error.message, status: error.status, requestId: error.requestId, details: error.details },
      requestId: error.requestId,
      ...(credits ? { credits } : {}),
    },
  };
}

/** Milliseconds as `[h:]mm:ss`, the timestamp a model can quote back. */
export function timestamp(ms: number): string {
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
  return hours > 0 ? `${hours}:${mmss}` : mmss;
}
