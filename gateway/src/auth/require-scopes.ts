import type { Scope } from '@vrs/contracts';
import { AppError } from '@vrs/kit';
import type { Principal } from '../context';

export function requireScopes(principal: Principal, required: readonly Scope[]): void {
  if (principal.scopes === 'owner') return;
  const missing = required.filter((scope) => !(principal.scopes as ReadonlySet<Scope>).has(scope));
  if (missing.length > 0) {
    throw new AppError('INSUFFICIENT_SCOPE', `This operation needs the permission${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`, {
      required,
      missing,
    });
  }
}
