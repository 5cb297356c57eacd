import type { Account } from '@vrs/contracts';
import type { AccountDoc } from '../../repo/accounts';

export function toAccount(doc: AccountDoc): Account {
  return {
    id: doc._id,
    email: doc.email ?? null,
    name: doc.name,
    verified: Boolean(doc.emailVerifiedAt),
    plan: doc.plan,
    createdAt: doc.createdAt,
  };
}
