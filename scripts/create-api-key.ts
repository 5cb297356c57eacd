// Creates an account (or uses --account) and prints a new API key once, through the billing
// service's internal endpoint of the running system (see connectToRunningService), so the system
// sees the key at once.
import { parseArgs } from 'node:util';
import { allScopes, scopeSchema } from '@vrs/contracts';
import { connectToRunningService } from '@vrs/runtime';
import type { BillingRouter } from '@vrs/billing';

const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    account: { type: 'string' },
    scopes: { type: 'string' },
    credits: { type: 'string' },
  },
});

const { client: billing, unreachable } = await connectToRunningService<BillingRouter>('billing', { caller: 'create-api-key' });
const { name = 'API key', scopes: scopeList = allScopes.join(',') } = values;
const scopes = scopeSchema.array().parse(scopeList.split(',').map((scope) => scope.trim()));
try {
  const accountId =
    values.account ??
    (await billing.accounts.create.mutate({ name, initialCredits: values.credits ? Number(values.credits) : undefined })).accountId;
  const key = await billing.apiKeys.create.mutate({ accountId, name, scopes });
  console.log(
    `account: ${accountId}\nscopes:  ${key.scopes.join(', ')}\napi key: ${key.key}\n\nThis key is shown once; only its hash is stored.`,
  );
} catch (error) {
  console.error(unreachable(error));
  process.exit(1);
}
