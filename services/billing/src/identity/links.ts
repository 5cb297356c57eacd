import type { BillingRepo } from '../repo';
import type { EmailLinkPurpose } from '../repo/email-links';
import { generateToken, hashToken } from './tokens';

/** A new single-use link token for the account; only its hash is stored, and earlier links of the purpose stop working. */
export async function issueLink(repo: BillingRepo, accountId: string, purpose: EmailLinkPurpose, ttlMs: number): Promise<string> {
  const token = generateToken('');
  await repo.emailLinks.issue({ _id: hashToken(token), accountId, purpose, expiresAt: new Date(repo.clock() + ttlMs).toISOString() });
  return token;
}
