// Allows an account to admit agent runs (or, with --revoke, no longer), through the agents service's
// internal endpoint of the running system: stored, so it takes effect at once and survives restarts.
import { parseArgs } from 'node:util';
import { connectToRunningService } from '@vrs/runtime';
import type { AgentsRouter } from '@vrs/agents';

const { values } = parseArgs({ options: { account: { type: 'string' }, revoke: { type: 'boolean', default: false } } });
if (!values.account) {
  console.error('usage: npm run agents:allow -- --account <accountId> [--revoke]');
  process.exit(64);
}
const { client: agents, unreachable } = await connectToRunningService<AgentsRouter>('agents', { caller: 'agents-allow' });
try {
  const { accountId, allowed } = await agents.access.allow.mutate({ accountId: values.account, allowed: !values.revoke });
  console.log(
    `account ${accountId}: agent runs ${allowed ? 'allowed' : 'no longer allowed'} (AGENTS_ENABLED must be true for either to matter).`,
  );
} catch (error) {
  console.error(unreachable(error));
  process.exit(1);
}
