import type { Request } from 'express';
import type { GatewayContext } from '../../context';

/** Where people approve a device code (RFC 8628 §3.2): the web app's /device, on PUBLIC_BASE_URL or this request's origin. */
export function verificationUri(ctx: GatewayContext): string {
  const req = ctx.req as Request;
  const base = ctx.deviceFlow.publicBaseUrl ?? `${req.protocol}://${req.get('host')}`;
  return `${base.replace(/\/+$/, '')}/device`;
}
