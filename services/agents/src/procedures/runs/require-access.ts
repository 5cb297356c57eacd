import { AppError } from '@vrs/kit';
import type { AgentsDeps } from '../../agents-deps';

/**
 * Agents are off unless enabled; then an account needs to be on the configured allowlist, the stored
 * one (`npm run agents:allow`, read on every admission so it takes effect at once), or be a demo
 * user while demo access is on. Checked before anything is reserved, so a refusal costs nothing.
 */
export async function requireAgentAccess({ settings, access }: AgentsDeps, caller: { accountId: string; demo: boolean }): Promise<void> {
  if (!settings.enabled) throw new AppError('AGENTS_NOT_ENABLED', 'Agent runs are not enabled on this service.');
  if (caller.demo && settings.demoAccess) return;
  if (settings.allowlist.includes(caller.accountId)) return;
  if (await access.isAllowed(caller.accountId)) return;
  throw new AppError('AGENTS_NOT_ENABLED', 'Agent runs are not enabled for this account (it is not on the allowlist).');
}
