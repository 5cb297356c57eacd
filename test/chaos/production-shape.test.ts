import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerCheck } from '@vrs/testing/metering-load';
import { hasSynthetic } from '@vrs/testing/upstreams/youtube/fixture-dirs';
import { call, driveChaosLoad, type Acknowledged, type Outcome } from './load';
import { startChaosStack, type ChaosStack, type Member } from './stack';

/** The least the load lasts; it goes on until every part killed is back, and a little after. */
const loadMs = 30_000;
/** How long each killed part stays down before it is started again. */
const downMs = 3_000;
/** Pause between one part's restart and the next kill. */
const betweenMs = 3_000;
const reservationTtlMs = 10_000;
const sweepIntervalMs = 1_000;
/** Generous: the machine has 2 cores and is often loaded; nothing here asserts speed. */
const settleTimeoutMs = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value; the last error says what was still wrong. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = settleTimeoutMs): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await sleep(250);
  }
}

interface Kill {
  what: string;
  killedAt: number;
  restartedAt: number;
  /** The gateway replica killed, whose own in-flight requests may go unanswered. */
  gateway?: number;
}

describe.skipIf(!hasSynthetic)('chaos in the production shape: services, a gateway and a NATS node killed under load', () => {
  let stack: ChaosStack;
  let passed = false;

  beforeAll(async () => {
    stack = await startChaosStack({ reservationTtlMs, sweepIntervalMs });
  }, 300_000);

  afterAll(async () => {
    await stack?.stop({ keepLogs: !passed });
  });

  it('loses no acknowledged write, completes every job once, charges what it answered, and answers 503 rather than 500', async () => {
    const gatewayUrls = stack.gateways.map((gateway) => gateway.url);
    const kills: Kill[] = [];
    const started = Date.now();

    async function killAndRestart(what: string, member: Pick<Member, 'kill' | 'restart'>, gateway?: number) {
      const killedAt = Date.now();
      await member.kill();
      await sleep(downMs);
      await member.restart();
      kills.push({ what, killedAt, restartedAt: Date.now(), gateway });
    }

    let chaosDone = false;
    async function chaos() {
      // One fault at a time, the next a moment after the previous part is back.
      await sleep(betweenMs);
      await killAndRestart('research', stack.research);
      await sleep(betweenMs);
      await killAndRestart('billing', stack.billing);
      await sleep(betweenMs);
      await killAndRestart('gateway-b', stack.gateways[1], 1);
      await sleep(betweenMs);
      // The node leading the research stream, which carries most events (evidence indexing, jobs).
      const leader = await stack.nats.leaderOf(`${stack.env.NATS_NAMESPACE}_research`);
      await killAndRestart(`nats node ${leader.name} (stream leader)`, leader);
      // Load after the last restart shows the stack whole again.
      await sleep(betweenMs);
      chaosDone = true;
    }

    const [{ outcomes, acknowledged, users }] = await Promise.all([
      driveChaosLoad({ gatewayUrls, workers: 6, goOn: () => !chaosDone || Date.now() - started < loadMs, importVideoId: 'vrsFixture1' }),
      chaos(),
    ]);
    const loadEndedAt = Date.now();
    report(outcomes, kills, started, loadEndedAt, acknowledged);

    // 0 × 500: every failure is a 503, or no answer from the killed replica while it was down or dying.
    const killedGateway = kills.find((kill) => kill.gateway !== undefined)!;
    const unexpected = outcomes.filter(
      (o) =>
        (typeof o.status === 'number' && o.status >= 500 && o.status !== 503) ||
        (o.status === 'connection' &&
          !(o.gateway === killedGateway.gateway && o.endedAt >= killedGateway.killedAt && o.startedAt <= killedGateway.restartedAt)),
    );
    expect(unexpected.map((o) => `${o.operation} gateway ${o.gateway} at +${o.startedAt - started} ms: ${o.status} ${o.error}`)).toEqual(
      [],
    );
    const clientErrors = outcomes.filter((o) => typeof o.status === 'number' && o.status >= 400 && o.status < 500);
    expect(clientErrors.map((o) => `${o.operation}: ${o.status} ${o.error}`)).toEqual([]);
    expect(acknowledged.evidence.length).toBeGreaterThan(0);
    expect(acknowledged.imports.length).toBeGreaterThan(0);
    expect(acknowledged.exports.length).toBeGreaterThan(0);

    const gateway = gatewayUrls[0]!;
    // Charges made after the load (searches checking the writes) count like the load's own.
    let verificationCharged = 0;

    // Every acknowledged project and evidence item is there, and every item is found by its own word.
    for (const project of acknowledged.projects) {
      const read = await call(gateway, project.user, 'GET', `/v1/projects/${project.id}`);
      expect(read.status, `project ${project.id}`).toBe(200);
    }
    for (const item of acknowledged.evidence) {
      const read = await call(gateway, item.user, 'GET', `/v1/projects/${item.projectId}/evidence/${item.id}`);
      expect(read.status, `evidence ${item.id}`).toBe(200);
      await eventually(`evidence ${item.id} to be searchable`, async () => {
        const found = await call(gateway, item.user, 'GET', `/v1/projects/${item.projectId}/search?q=${item.token}`);
        if (found.status === 200) verificationCharged += found.charged;
        return found.status === 200 && found.body.results.some((result: { id: string }) => result.id === item.id) ? true : undefined;
      });
    }

    // Every acknowledged job completes, and did its work once: one metadata item for the one video imported.
    for (const job of acknowledged.imports) {
      const done = await eventually(`import ${job.jobId} to complete`, async () => {
        const read = await call(gateway, job.user, 'GET', `/v1/jobs/${job.jobId}`);
        return ['completed', 'failed', 'cancelled'].includes(read.body?.status) ? read.body : undefined;
      });
      expect(done.status, `import ${job.jobId}`).toBe('completed');
      const listed = await call(gateway, job.user, 'GET', `/v1/projects/${job.projectId}/evidence?limit=100`);
      const metadata = (listed.body.data as { sourceKey: string }[]).filter((item) => item.sourceKey.endsWith(':metadata'));
      expect(metadata, `import ${job.jobId}`).toHaveLength(1);
    }
    for (const created of acknowledged.exports) {
      const done = await eventually(`export ${created.id} to be ready`, async () => {
        const read = await call(gateway, created.user, 'GET', `/v1/exports/${created.id}`);
        return ['completed', 'failed'].includes(read.body?.status) ? read.body : undefined;
      });
      expect(done.status, `export ${created.id}`).toBe('completed');
    }

    // Nothing stays reserved once the reservation TTL (and a sweep) has passed.
    const books = await eventually(
      'every account to hold nothing reserved',
      async () => {
        const all = await Promise.all(users.map((user) => ledgerCheck(gateway, { 'x-demo-user': user })));
        return all.every((account) => account.reserved === 0) ? all : undefined;
      },
      reservationTtlMs + sweepIntervalMs + settleTimeoutMs,
    );

    // What the answers said was charged is what the ledger charged: the 2xx answers' X-Credits-Charged, and the
    // price of each job, charged when it completes (imports 5, exports 2). A request the killed replica never
    // answered may have been charged without the client knowing: at most its price, so the ledger may exceed
    // the headers by that much and no more.
    const headers = outcomes.filter((o) => typeof o.status === 'number' && o.status < 300).reduce((sum, o) => sum + o.charged, 0);
    const jobs = 5 * acknowledged.imports.length + 2 * acknowledged.exports.length;
    const expected = headers + verificationCharged + jobs;
    const ledger = books.reduce((sum, account) => sum + (account.granted - account.ledgerSum), 0);
    const unanswered = outcomes.filter(
      (o) => o.status === 'connection' && o.startedAt <= killedGateway.killedAt && o.endedAt >= killedGateway.killedAt,
    );
    const unansweredAtMost = unanswered.reduce(
      (sum, o) => sum + (o.operation === 'createImport' ? 5 : o.operation === 'createExport' ? 2 : 1),
      0,
    );
    console.info(
      `[chaos] credits: X-Credits-Charged on 2xx ${headers} + verification searches ${verificationCharged} + jobs ${jobs} = ${expected}; ` +
        `ledger charged ${ledger} (spent ${books.reduce((sum, a) => sum + a.spent, 0)}); ${unanswered.length} requests in flight on the killed gateway (at most ${unansweredAtMost} credits)`,
    );
    expect(ledger).toBeGreaterThanOrEqual(expected);
    expect(ledger - expected).toBeLessThanOrEqual(unansweredAtMost);
    passed = true;
  }, 900_000);
});

/** Prints requests by status, 503s and how long each kill disturbed the answers. */
function report(outcomes: Outcome[], kills: Kill[], started: number, ended: number, acknowledged: Acknowledged): void {
  const byStatus: Record<string, number> = {};
  for (const o of outcomes) byStatus[String(o.status)] = (byStatus[String(o.status)] ?? 0) + 1;
  const byOperation: Record<string, string> = {};
  for (const operation of new Set(outcomes.map((o) => o.operation))) {
    const mine = outcomes.filter((o) => o.operation === operation);
    byOperation[operation] = `${mine.filter((o) => typeof o.status === 'number' && o.status < 300).length}/${mine.length}`;
  }
  console.info(
    `[chaos] ${outcomes.length} requests in ${ended - started} ms over 2 gateways; by status ${JSON.stringify(byStatus)}; 2xx/all by operation ${JSON.stringify(byOperation)}`,
  );
  console.info(
    `[chaos] acknowledged: ${acknowledged.projects.length} projects, ${acknowledged.evidence.length} evidence items, ${acknowledged.imports.length} imports, ${acknowledged.exports.length} exports`,
  );
  kills.forEach((kill, i) => {
    const until = kills[i + 1]?.killedAt ?? ended;
    const window = outcomes.filter((o) => o.startedAt >= kill.killedAt && o.startedAt < until);
    const failed = window.filter((o) => o.status === 503 || o.status === 'connection');
    const recoveredAfter = failed.length > 0 ? Math.max(...failed.map((o) => o.endedAt)) - kill.killedAt : 0;
    console.info(
      `[chaos] kill -9 ${kill.what} at +${kill.killedAt - started} ms, restarted ${kill.restartedAt - kill.killedAt} ms later: ` +
        `${failed.filter((o) => o.status === 503).length} × 503 and ${failed.filter((o) => o.status === 'connection').length} unanswered of ${window.length}; ` +
        `last failure ${recoveredAfter} ms after the kill`,
    );
  });
}
