import type { PlanId } from '@vrs/contracts';
import type { AccountDoc, AccountsRepo } from './accounts';
import type { LedgerRepo } from './ledger';

/** Why an account is topped up: a period's renewal (or its late payment), or an upgrade within a period. */
export type TopUpReason = { kind: 'renewal' } | { kind: 'upgrade'; plan: PlanId };

/**
 * The id of the one grant line a reason may leave per period: inserting it twice is a
 * DuplicateKeyError, so a period can never be granted twice whatever ran twice.
 */
export function topUpLineId(accountId: string, periodStart: string, reason: TopUpReason): string {
  const start = Date.parse(periodStart);
  return reason.kind === 'renewal' ? `led_renewal_${accountId}_${start}` : `led_upgrade_${reason.plan}_${accountId}_${start}`;
}

/**
 * Tops the balance up to `allowance` (ADR 0032: unused credits count toward the next allowance and
 * do not stack; nothing is taken away), with one `grant` line, at most once per period and reason.
 * The line is written even when the balance already covers the allowance (amount 0), so the ledger
 * shows that the period was renewed. Runs inside the caller's transaction. Returns the line's amount,
 * or null when this period already had it.
 */
export async function topUp(
  repo: { accounts: AccountsRepo; ledger: LedgerRepo },
  account: AccountDoc,
  periodStart: string,
  allowance: number,
  reason: TopUpReason,
): Promise<number | null> {
  const id = topUpLineId(account._id, periodStart, reason);
  if (await repo.ledger.exists(id)) return null;
  const amount = Math.max(0, allowance - account.balance);
  if (amount > 0) await repo.accounts.grant(account._id, amount);
  await repo.ledger.append({ id, accountId: account._id, kind: 'grant', amount, operation: null, reservationId: null, requestId: null });
  return amount;
}
