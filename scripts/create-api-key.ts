// Creates an account (or uses --account) and prints a new API key once. Talks to the billing
// service's internal tRPC endpoint (BILLING_SERVICE_URL + INTERNAL_TOKEN), which `npm start`,
// `turbo dev` and docker compose all expose, so the running system sees the key at once.
import { parseArgs } from 'node:util';
import { allScopes, scopeSchema } from '@vrs/contracts';
import { createServiceClient } from '@vrs/kit';
import type { BillingRouter } from '@vrs/billing';

const { values } = parseArgs({
  options: {
    name: { type: 'string', default: 'API key' },
    account: { type: 'string' },
    scopes: { type: 'string', default: allScopes.join(',') },
    credits: { type: 'string' },
  },
});

const url = process.env.BILLING_SERVICE_URL ?? 'http://127.0.0.1:4101';
const internalToken = process.env.INTERNAL_TOKEN ?? 'local-development-internal-token';
const billing = createServiceClient<BillingRouter>({ mode: 'http', url, internalToken, caller: 'create-api-key' });

const scopes = scopeSchema.array().parse(values.scopes!.split(',').map((scope) => scope.trim()));
try {
  const accountId =
    values.account ??
    (await billing.accounts.create.mutate({ name: values.name, initialCredits: values.credits ? Number(values.credits) : undefined }))
      .accountId;
  const key = await billing.apiKeys.create.mutate({ accountId, name: values.name!, scopes });
  console.log(
    `account: ${accountId}\nscopes:  ${key.scopes.join(', ')}\napi key: ${key.key}\n\nThis key is shown once; only its hash is stored.`,
  );
} catch (error) {
  console.error(
    `Could not create a key through ${url}: ${(error as Error).message}\nIs the system running (npm start), and is INTERNAL_TOKEN the one it uses?`,
  );
  process.exit(1);
}
