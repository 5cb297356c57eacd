import type { Command } from 'commander';
import { ApiError } from '@vrs/client';
import { credentialsPath, readCredential, removeCredential, saveCredential } from '../credentials';
import { oauthCredential, revokeToken, runDeviceFlow, type Scope } from '../device-flow';
import { UsageError } from '../exit-codes';
import { action, scopeList } from './action';

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.trim();
}

export function registerAuthCommands(program: Command) {
  program
    .command('login')
    .description('Sign in with the device flow (or store an API key read from stdin with --with-api-key)')
    .option('--scopes <list>', 'the permissions to ask for, comma-separated (default: data:read); you may approve fewer', scopeList)
    .option('--with-api-key', 'read an API key (aty_…) from stdin and store it instead')
    .action(
      action(async (ctx, options: { withApiKey?: boolean; scopes?: Scope[] }) => {
        if (options.withApiKey) {
          const key = await readStdin();
          if (!key) throw new UsageError('No API key on stdin: `echo $KEY | vrs login --with-api-key`.');
          // Checked before it is stored, so a typo fails here and not in the next command.
          const client = ctx.anonymousClient();
          await client.send(client.api.GET('/auth/session', { headers: { authorization: `Bearer ${key}` } }));
          await saveCredential(ctx.apiUrl, { token: key, kind: 'api_key', savedAt: new Date().toISOString() });
          ctx.out.result({ apiUrl: ctx.apiUrl, kind: 'api_key', path: credentialsPath() }, () => `API key stored for ${ctx.apiUrl}.`);
          return;
        }
        const token = await runDeviceFlow({
          apiUrl: ctx.apiUrl,
          ...(options.scopes ? { scopes: options.scopes } : {}),
          onCode: (code) => {
            ctx.out.event(
              {
                event: 'device_code',
                user_code: code.user_code,
                verification_uri: code.verification_uri,
                verification_uri_complete: code.verification_uri_complete,
                expires_in: code.expires_in,
              },
              [
                `To sign in, open ${ctx.out.colors.bold(code.verification_uri)} and enter the code ${ctx.out.colors.bold(code.user_code)}`,
                `(or open ${code.verification_uri_complete ?? code.verification_uri}).`,
                `Waiting for approval (the code expires in ${Math.round(code.expires_in / 60)} min)…`,
              ].join('\n'),
            );
          },
        });
        const scopes = token.scope.split(' ').filter(Boolean);
        await saveCredential(ctx.apiUrl, oauthCredential(token));
        ctx.out.result(
          { apiUrl: ctx.apiUrl, kind: 'oauth', scopes, path: credentialsPath() },
          () => `Signed in to ${ctx.apiUrl} with ${scopes.join(', ') || 'no scopes'}.`,
        );
      }),
    );

  program
    .command('logout')
    .description('Revoke the stored sign-in on the server and forget it (an API key is only forgotten)')
    .action(
      action(async (ctx) => {
        const stored = await readCredential(ctx.apiUrl);
        let revoked = false;
        if (stored?.kind === 'oauth') {
          // RFC 7009: the refresh token ends the whole grant, access token included.
          await revokeToken(ctx.apiUrl, stored.refreshToken ?? stored.token);
          revoked = true;
        }
        if (stored?.kind === 'cli_session') {
          // The stored token, even when VRS_API_KEY is set: it is the one being signed out.
          const client = ctx.anonymousClient();
          try {
            // Which session this token is, then that session signed out: its token stops working everywhere.
            const { data: session } = await client.send(
              client.api.GET('/auth/session', { headers: { authorization: `Bearer ${stored.token}` } }),
            );
            if (session.credential.kind === 'cli_session' && session.credential.id) {
              await client.send(
                client.api.DELETE('/auth/sessions/{sessionId}', {
                  params: { path: { sessionId: session.credential.id } },
                  headers: { authorization: `Bearer ${stored.token}` },
                }),
              );
              revoked = true;
            }
          } catch (error) {
            // A session already revoked or expired (401) or gone (404) is forgotten all the same.
            if (!(error instanceof ApiError) || ![401, 404].includes(error.status)) throw error;
          }
        }
        const removed = await removeCredential(ctx.apiUrl);
        ctx.out.result({ apiUrl: ctx.apiUrl, removed, revoked }, () =>
          removed ? `Signed out of ${ctx.apiUrl}${revoked ? ' (the session is revoked)' : ''}.` : `Not signed in to ${ctx.apiUrl}.`,
        );
      }),
    );

  program
    .command('whoami')
    .description('Show the account, the credential and the scopes the current credential acts with')
    .action(
      action(async (ctx) => {
        const { data: session } = await ctx.call((api) => api.GET('/auth/session'));
        const who = { apiUrl: ctx.apiUrl, accountId: session.account.id, ...session };
        ctx.out.result(who, () =>
          [
            `account:    ${who.accountId}${session.account.email ? ` (${session.account.email})` : ''}`,
            `credential: ${session.credential.kind}${session.credential.id ? ` ${session.credential.id}` : ''}`,
            `scopes:     ${session.scopes.join(', ') || '(none)'}`,
            `api:        ${ctx.apiUrl}`,
          ].join('\n'),
        );
      }),
    );
}
