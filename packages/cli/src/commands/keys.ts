import type { Command } from 'commander';
import type { Scope } from '../device-flow';
import { action, nextPageHint, pageQuery, scopeList, wholeNumber } from './action';

/** `vrs keys`: the account's API keys over /v1/api-keys (the credential needs account:manage). */
export function registerKeyCommands(program: Command) {
  const keys = program.command('keys').description('API keys: list, create, revoke (needs account:manage)');
  keys
    .command('list', { isDefault: true })
    .description("List the account's active API keys, newest first")
    .option('--limit <n>', 'how many (1-100)', wholeNumber)
    .option('--cursor <cursor>', 'the nextCursor of the previous page')
    .action(
      action(async (ctx, options: { limit?: number; cursor?: string }) => {
        const { data } = await ctx.call((api) =>
          api.GET('/api-keys', {
            params: { query: pageQuery(options) },
          }),
        );
        ctx.out.result(data, (page) =>
          [
            ctx.out.table(
              ['id', 'name', 'prefix', 'scopes', 'expires', 'last used'],
              page.data.map((key) => [key.id, key.name, key.prefix, key.scopes.join(' '), key.expiresAt ?? 'never', key.lastUsedAt]),
            ),
            ...nextPageHint(page),
          ].join('\n'),
        );
      }),
    );
  keys
    .command('create <name>')
    .description('Create an API key; the key is printed once, only its hash is kept')
    .requiredOption('--scopes <list>', 'what the key may do, comma-separated (at most what this credential holds)', scopeList)
    .option('--expires-at <time>', 'when the key stops working (ISO 8601, at most 366 days ahead); default: never')
    .action(
      action(async (ctx, name: string, options: { scopes: Scope[]; expiresAt?: string }) => {
        const { data } = await ctx.call((api) =>
          api.POST('/api-keys', {
            body: { name, scopes: options.scopes, ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}) },
          }),
        );
        ctx.out.result(data, (key) =>
          [
            `Created API key ${key.id} (${key.name}) with ${key.scopes.join(', ')}${key.expiresAt ? `, expiring ${key.expiresAt}` : ''}.`,
            'The key, shown this once (store it now):',
            key.key,
          ].join('\n'),
        );
      }),
    );
  keys
    .command('revoke <keyId>')
    .description('Revoke an API key: it stops working at once')
    .action(
      action(async (ctx, id: string) => {
        const { data } = await ctx.call((api) => api.DELETE('/api-keys/{id}', { params: { path: { id } } }));
        ctx.out.result(data, (deleted) => `Revoked API key ${deleted.id}.`);
      }),
    );
}
