import type { Command } from 'commander';
import { ApiError } from '@vrs/client';
import { credentialsPath, readCredential, removeCredential, saveCredential } from '../credentials';
import { runDeviceFlow } from '../device-flow';
import { UsageError } from '../exit-codes';
import { action } from './action';

const clientId = 'vrs-cli';

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.trim();
}

export function registerAuthCommands(program: Command) {
  program
    .command('login')
    .description('Sign in with the device flow (or store an API key read from stdin with --with-api-key)')
    .option('--with-api-key', 'read an API key (aty_…) from stdin and store it instead')
    .action(
      action(async (ctx, options: { withApiKey?: boolean }) => {
        if (options.withApiKey) {
          const key = await readStdin();
          if (!key) throw new UsageError('No API key on stdin: `echo $KEY | vrs login --with-api-key`.');
          // Checked before it is stored, so a typo fails here and not in the next command.
          const client = ctx.anonymousClient();
          await client.send(client.api.GET('/billing', { headers: { authorization: `Bearer ${key}` } }));
          await saveCredential(ctx.apiUrl, { token: key, kind: 'api_key', savedAt: new Date().toISOString() });
          ctx.out.result({ apiUrl: ctx.apiUrl, kind: 'api_key', path: credentialsPath() }, () => `API key stored for ${ctx.apiUrl}.`);
          return;
        }
        const token = await runDeviceFlow({
          client: ctx.anonymousClient(),
          clientId,
          onCode: (code) => {
            const url = code.verification_uri_complete ?? code.verification_uri;
            ctx.out.event(
              { event: 'device_code', user_code: code.user_code, verification_uri: code.verification_uri, verification_uri_complete: url },
              `To sign in, open ${ctx.out.colors.bold(url)}\nand confirm the code ${ctx.out.colors.bold(code.user_code)}. Waiting…`,
            );
          },
        });
        await saveCredential(ctx.apiUrl, {
          token: token.access_token,
          kind: 'cli_session',
          ...(token.expires_in ? { expiresAt: new Date(Date.now() + token.expires_in * 1000).toISOString() } : {}),
          ...(token.scope ? { scope: token.scope } : {}),
          savedAt: new Date().toISOString(),
        });
        ctx.out.result({ apiUrl: ctx.apiUrl, kind: 'cli_session', scope: token.scope }, () => `Signed in to ${ctx.apiUrl}.`);
      }),
    );

  program
    .command('logout')
    .description('Revoke the stored CLI session and forget it')
    .action(
      action(async (ctx) => {
        const stored = await readCredential(ctx.apiUrl);
        if (stored?.kind === 'cli_session') {
          const client = await ctx.client();
          // Revoking is best effort: a session already revoked or expired is forgotten all the same.
          await client.raw('/auth/session', { method: 'DELETE', headers: { authorization: `Bearer ${stored.token}` } }).catch((error) => {
            if (!(error instanceof ApiError) || error.status >= 500 || error.status === 0) throw error;
          });
        }
        const removed = await removeCredential(ctx.apiUrl);
        ctx.out.result({ apiUrl: ctx.apiUrl, removed }, () =>
          removed ? `Signed out of ${ctx.apiUrl}.` : `Not signed in to ${ctx.apiUrl}.`,
        );
      }),
    );

  program
    .command('whoami')
    .description('Show the account the current credential acts for')
    .action(
      action(async (ctx) => {
        const client = await ctx.client();
        const session = await client
          .raw('/auth/session')
          .then((response) => response.json() as Promise<Record<string, unknown>>)
          .catch((error) => {
            // Servers without the session endpoint still say whose credits these are.
            if (error instanceof ApiError && error.code === 'ROUTE_NOT_FOUND') return undefined;
            throw error;
          });
        const { data: billing } = await client.send(client.api.GET('/billing'));
        const who = { apiUrl: ctx.apiUrl, accountId: billing.accountId, plan: billing.plan, balance: billing.credits.balance, ...session };
        ctx.out.result(who, () =>
          [`account: ${who.accountId}`, `plan:    ${who.plan}`, `credits: ${who.balance}`, `api:     ${ctx.apiUrl}`].join('\n'),
        );
      }),
    );
}
