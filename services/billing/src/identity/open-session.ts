import { cliSessionTokenPrefix, webSessionTokenPrefix } from '@vrs/contracts';
import { newId } from '@vrs/kit';
import type { BillingRepo } from '../repo';
import type { SessionDoc } from '../repo/sessions';
import { generateToken, hashToken } from './tokens';

type OpenSessionInput = Pick<SessionDoc, 'accountId' | 'kind' | 'scopes' | 'userAgent' | 'ip' | 'label'> & { ttlMs: number };

/**
 * Stores a new session and returns it with its token, which exists only in this return value
 * (ADR 0034). Shared by `sessions.create` and the device flow's exchange (ADR 0036).
 */
export async function openSession(repo: BillingRepo, input: OpenSessionInput): Promise<{ session: SessionDoc; token: string }> {
  const token = generateToken(input.kind === 'web' ? webSessionTokenPrefix : cliSessionTokenPrefix);
  const now = repo.clock();
  const session: SessionDoc = {
    _id: newId('ses'),
    accountId: input.accountId,
    kind: input.kind,
    tokenHash: hashToken(token),
    scopes: input.scopes,
    csrfToken: input.kind === 'web' ? generateToken('') : null,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + input.ttlMs).toISOString(),
    lastRotatedAt: new Date(now).toISOString(),
    previousTokenHash: null,
    previousValidUntil: null,
    revokedAt: null,
    userAgent: input.userAgent,
    ip: input.ip,
    label: input.label,
  };
  await repo.sessions.insert(session);
  return { session, token };
}
