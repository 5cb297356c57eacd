import { AppError } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';

/**
 * Agents are off unless enabled; then an account needs to be on the configured allowlist (with its
 * email address verified, if it has one), the stored one (`npm run agents:allow`, which checks the
 * same when allowing; read on every admission so it takes effect at once), or be a demo user while
 * demo access is on. Checked before anything is reserved, so a refusal costs nothing.
 */
export async function requireAgentAccess(
  { settings, access, billing }: AgentsDeps,
  caller: { accountId: string; demo: boolean },
): Promise<void> {
  if (!settings.enabled) throw new AppError('AGENTS_NOT_ENABLED', 'Agent runs are not enabled on this service.');
  if (caller.demo && settings.demoAccess) return;
  if (settings.allowlist.includes(caller.accountId)) {
    // The configured list is checked as the operator script checks: an email address must be verified.
    const account = await billing.accounts.get.query({ accountId: caller.accountId });
    if (!account.email || account.verified) return;
    throw new AppError('AGENTS_NOT_ENABLED', 'Agent runs are enabled for this account once its email address is verified.');
  }
  if (await access.isAllowed(caller.accountId)) return;
  throw new AppError('AGENTS_NOT_ENABLED', 'Agent runs are not enabled for this account (it is not on the allowlist).');
}
