import { AppError } from '@vrs/kit';
import type { BillingRepo } from '../repo';
import type { DeviceCodeDoc } from '../repo/device-codes';
import { hashToken } from './tokens';
import { normalizeUserCode } from './user-codes';

/**
 * The device authorization a typed user code names, while it can still be decided; otherwise the
 * precise reason: USER_CODE_INVALID (no such code, or not a code at all), USER_CODE_USED (already
 * approved, denied or exchanged), USER_CODE_EXPIRED. With it, the canonical user code it was found by.
 */
export async function pendingDeviceCode(repo: BillingRepo, typed: string): Promise<DeviceCodeDoc & { userCode: string }> {
  const userCode = normalizeUserCode(typed);
  const code = userCode === null ? null : await repo.deviceCodes.byUserCodeHash(hashToken(userCode));
  if (!code || userCode === null) throw new AppError('USER_CODE_INVALID');
  if (code.status !== 'pending') throw new AppError('USER_CODE_USED');
  if (Date.parse(code.expiresAt) <= repo.clock()) throw new AppError('USER_CODE_EXPIRED');
  return { ...code, userCode };
}
