// bench/metering-load: issue 15 goal 4 at full size — 100 consumers for 60 s of metered search
// through the whole system in one process (as `npm start` runs it: batched billing calls, ADR 0083,
// and batched rate limits at their defaults) with an API key whose credits run out part-way, then the books: the
// ledger against the sum of X-Credits-Charged, the lowest balance seen, every 402's headers. Not a
// test (test/e2e/metering-under-load.test.ts is its small, asserted twin): it prints the comparison.
// Env: BENCH_SECONDS (60), BENCH_CONNECTIONS (100), BENCH_CREDITS (the account's credits; 5000).
import { apiClient } from '@vrs/testing/api-client';
import { driveMeteredLoad, ledgerCheck } from '@vrs/testing/metering-load';
import { processFiguresOf, startBenchGateway } from '../support/bench-gateway';
import { withTempDir } from '../support/figures';

const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const credits = Number(process.env.BENCH_CREDITS ?? 5000);

async function main() {
  await withTempDir('vrs-bench-', async (runDir) => {
    // The demo account opens with `credits`; an API key of it is the consumer's credential.
    const gateway = await startBenchGateway('bench-metering-load', runDir, { BILLING_STARTING_CREDITS: String(credits) });
    try {
      const demo = apiClient(gateway.url, { 'x-demo-user': 'load' });
      const { body: apiKey } = await demo('POST', '/v1/api-keys', {
        json: { name: 'load', scopes: ['data:read', 'data:write', 'account:access', 'billing:read'] },
      });
      const headers = { authorization: `Bearer ${apiKey.key}` };
      const api = apiClient(gateway.url, headers);
      const project = await api('POST', '/v1/projects', { json: { name: 'load' } });
      const evidence = await api('POST', `/v1/projects/${project.body.id}/evidence`, {
        json: { items: [{ text: 'load bench evidence' }] },
      });
      if (project.status !== 200 || evidence.status !== 200) throw new Error(`setup failed: ${project.status} ${evidence.status}`);
      const setupCharged = Number(project.headers.get('x-credits-charged')) + Number(evidence.headers.get('x-credits-charged'));

      await processFiguresOf(gateway.url);
      const started = performance.now();
      const outcome = await driveMeteredLoad({
        gatewayUrl: gateway.url,
        headers,
        projectId: project.body.id,
        connections,
        durationMs: seconds * 1000,
      });
      const elapsed = (performance.now() - started) / 1000;
      const figures = await processFiguresOf(gateway.url);
      const books = await ledgerCheck(gateway.url, headers);

      const charged = setupCharged + outcome.charged;
      const verdict = (ok: boolean) => (ok ? 'holds' : 'BROKEN');
      console.log(`\nbench/metering-load — ${connections} connections, ${seconds} s, an account of ${credits} credits\n`);
      console.log(
        `requests: ${outcome.requests} (${(outcome.requests / elapsed).toFixed(0)} req/s); by status: ${JSON.stringify(outcome.byStatus)}`,
      );
      console.log('| figure | value |');
      console.log('|---|---:|');
      console.log(`| sum of X-Credits-Charged (setup included) | ${charged} |`);
      console.log(`| billing: spent | ${books.spent} |`);
      console.log(`| billing: granted − balance | ${books.granted - books.balance} |`);
      console.log(`| billing: reserved after the run | ${books.reserved} |`);
      console.log(`| ledger sum / balance | ${books.ledgerSum} / ${books.balance} |`);
      console.log(`| lowest X-Credits-Remaining seen | ${outcome.lowestRemaining} |`);
      console.log(
        `| gateway RSS / max event-loop delay | ${(figures.rssBytes / 1024 / 1024).toFixed(0)} MB / ${figures.eventLoopDelayMs.max} ms |`,
      );
      console.log(
        `\nledger equals the sum of X-Credits-Charged: ${verdict(books.spent === charged && books.granted - books.balance === charged)}`,
      );
      console.log(`no balance below zero: ${verdict(books.balance >= 0 && outcome.lowestRemaining >= 0)}`);
      console.log(
        `ledger sums to the balance, nothing left reserved: ${verdict(books.ledgerSum === books.balance && books.reserved === 0)}`,
      );
      console.log(
        `every 402 carries both headers (${outcome.byStatus[402] ?? 0} of them): ${verdict(outcome.headerViolations.length === 0)}${outcome.headerViolations.length ? ` — ${outcome.headerViolations.slice(0, 5).join('; ')}` : ''}`,
      );
    } finally {
      await gateway.stop();
    }
  });
}

await main();
