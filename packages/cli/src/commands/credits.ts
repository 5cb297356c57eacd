import type { Command } from 'commander';
import { action, wholeNumber } from './action';

export function registerCreditCommands(program: Command) {
  program
    .command('credits')
    .description('Your balance and plan; --ledger for the credit movements')
    .option('--ledger', 'list the ledger entries, newest first')
    .option('--limit <n>', 'how many ledger entries (1-100)', wholeNumber)
    .action(
      action(async (ctx, options: { ledger?: boolean; limit?: number }) => {
        if (options.ledger) {
          const { data } = await ctx.call((api) => api.GET('/billing/ledger', { params: { query: { limit: options.limit } } }));
          ctx.out.result(data, (page) =>
            ctx.out.table(
              ['when', 'kind', 'amount', 'operation', 'requestId'],
              page.data.map((entry) => [entry.createdAt, entry.kind, entry.amount, entry.operation, entry.requestId]),
            ),
          );
          return;
        }
        const { data } = await ctx.call((api) => api.GET('/billing'));
        ctx.out.result(data, (status) =>
          [
            `balance:  ${ctx.out.colors.bold(String(status.credits.balance))} credits`,
            `reserved: ${status.credits.reserved}   spent: ${status.credits.spent}   granted: ${status.credits.granted}`,
            `plan:     ${status.plan} (${status.subscription.status})`,
          ].join('\n'),
        );
      }),
    );
}
