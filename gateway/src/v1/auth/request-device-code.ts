import type { Request } from 'express';
import { deviceCodeResponseSchema, requestDeviceCodeInput } from '@vrs/contracts';
import { publicOperation } from '../../trpc';
import { deviceAuthorizationResponse } from '../../oauth/device-authorization-endpoint';

export const requestDeviceCode = publicOperation({
  method: 'POST',
  path: '/auth/device/code',
  operationId: 'requestDeviceCode',
  tags: ['Authentication'],
  summary: 'Start a device authorization (RFC 8628)',
  description:
    'Public (no credential): a command-line client asks for a device code and a user code. The user opens `verification_uri` ' +
    '(or `verification_uri_complete`), signs in and approves; meanwhile the client polls POST /auth/device/token every `interval` ' +
    'seconds. Field names follow RFC 8628. Default scopes: data:read. Rate-limited per client IP (429 DEVICE_CODE_RATE_LIMITED).',
  errorResponses: [422, 429, 500, 503],
})
  .input(requestDeviceCodeInput)
  .output(deviceCodeResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const started = await ctx.services.billing.device.start.mutate({
      // None named: reading, the least a CLI is useful with (ADR 0036).
      scopes: input.scopes ?? ['data:read'],
      clientName: input.clientName ?? null,
      expiresInSeconds: ctx.deviceFlow.codeTtlSeconds,
      intervalSeconds: ctx.deviceFlow.intervalSeconds,
      ip: (ctx.req as Request).ip ?? null,
    });
    ctx.res.setHeader('Cache-Control', 'no-store');
    return deviceAuthorizationResponse(ctx.req as Request, ctx.deviceFlow.publicBaseUrl, started);
  });
