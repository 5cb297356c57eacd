import { deviceGrantType, deviceTokenResponseSchema, exchangeDeviceCodeInput } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import { publicOperation } from '../../trpc';

export const exchangeDeviceCode = publicOperation({
  method: 'POST',
  path: '/auth/device/token',
  operationId: 'exchangeDeviceCode',
  tags: ['Authentication'],
  summary: 'Poll for the CLI session token (RFC 8628)',
  description:
    'Public (no credential). Until the user decides, answers 400 AUTHORIZATION_PENDING; faster than `interval` 400 SLOW_DOWN ' +
    '(the interval grows by 5 s, given in details.interval); then 400 ACCESS_DENIED, 400 EXPIRED_TOKEN, or the token once: ' +
    'a CLI session (`atc_…`, send as `Authorization: Bearer`) holding the scopes the user approved. Any later poll with the ' +
    'same device code is 400 INVALID_DEVICE_CODE. Every refusal carries the RFC 8628 / RFC 6749 value in details.error.',
  errorResponses: [400, 422, 429, 500, 503],
})
  .input(exchangeDeviceCodeInput)
  .output(deviceTokenResponseSchema)
  .mutation(async ({ ctx, input }) => {
    // RFC 6749 §5.1: token responses, and the refusals in between, are never cached.
    ctx.res.setHeader('Cache-Control', 'no-store');
    if (input.grant_type !== undefined && input.grant_type !== deviceGrantType) {
      throw new AppError('UNSUPPORTED_GRANT_TYPE', undefined, { error: 'unsupported_grant_type' });
    }
    const session = await ctx.services.billing.device.poll.mutate({
      deviceCode: input.device_code,
      sessionTtlMs: ctx.deviceFlow.cliSessionTtlMs,
    });
    return {
      access_token: session.token,
      token_type: 'Bearer' as const,
      expires_in: Math.floor(ctx.deviceFlow.cliSessionTtlMs / 1000),
      scope: session.scopes.join(' '),
    };
  });
