import { describe, expect, it } from 'vitest';
import { ApiError, type ResponseMeta } from '@vrs/client';
import { timestamp, toolError, toolResult } from './tool-result';

const meta: ResponseMeta = {
  status: 200,
  requestId: 'req_1',
  credits: { charged: 3, remaining: 97 },
  rateLimit: undefined,
  retryAfterSeconds: undefined,
};

describe('MCP tool results', () => {
  it('carries the REST call credits and request id in _meta', () => {
    expect(toolResult({ data: {}, meta }, 'text')).toEqual({
      content: [{ type: 'text', text: 'text' }],
      _meta: { requestId: 'req_1', credits: { charged: 3, remaining: 97 } },
    });
    expect(toolResult({ data: {}, meta: { ...meta, credits: undefined } }, 'free')._meta).toEqual({ requestId: 'req_1' });
  });

  it('turns an API error into a tool error with the code, message, request id and the envelope in _meta', () => {
    const error = new ApiError({
      status: 402,
      code: 'INSUFFICIENT_CREDITS',
      message: 'Short.',
      requestId: 'req_2',
      details: { balance: 0, required: 3 },
      meta: { ...meta, status: 402, requestId: 'req_2', credits: { charged: 0, remaining: 0 } },
    });
    expect(toolError(error)).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'INSUFFICIENT_CREDITS: Short. (requestId req_2)' }],
      _meta: {
        error: { code: 'INSUFFICIENT_CREDITS', message: 'Short.', status: 402, requestId: 'req_2', details: { balance: 0, required: 3 } },
        requestId: 'req_2',
        credits: { charged: 0, remaining: 0 },
      },
    });
  });

  it('leaves anything that is not an API error to the SDK (a bug, not a tool failure)', () => {
    expect(() => toolError(new TypeError('boom'))).toThrow('boom');
  });

  it('writes timestamps a model can quote back', () => {
    expect(timestamp(0)).toBe('00:00');
    expect(timestamp(2_400)).toBe('00:02');
    expect(timestamp(61_999)).toBe('01:01');
    expect(timestamp(3_600_000 + 5_000)).toBe('1:00:05');
  });
});
