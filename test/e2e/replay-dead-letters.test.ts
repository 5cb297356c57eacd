import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { researchEvidenceAdded } from '@vrs/contracts';
import { createJetStreamBus, deleteNamespace, type EventBus } from '@vrs/bus';
import { repoRoot } from '@vrs/kit';
import { ensureNatsServer, uniqueNamespace, type NatsServerHandle } from '@vrs/testing/nats';

const run = promisify(execFile);
const poll = { timeout: 15_000, interval: 50 };

describe('npm run events:replay-dead-letters (ADR 0030)', () => {
  let nats: NatsServerHandle;
  const namespace = uniqueNamespace('dl');
  let bus: EventBus;

  beforeAll(async () => {
    nats = await ensureNatsServer();
    bus = await createJetStreamBus({
      natsUrl: nats.url,
      namespace,
      name: 'dead-letter test',
      timings: { ackWaitMs: 5_000, maxDeliver: 2, redeliveryBackoffMs: [20] },
    });
    await bus.ensureStreams(['research']);
  });

  afterAll(async () => {
    await bus?.close();
    await deleteNamespace(nats.url, namespace);
    await nats?.stop();
  });

  function replay(...args: string[]) {
    return run(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/replay-dead-letters.ts'), ...args], {
      cwd: repoRoot,
      env: { ...process.env, NATS_URL: nats.url, NATS_NAMESPACE: namespace },
    });
  }

  it('republishes a consumer’s dead letters with their original ids, up to --limit, and removes them', async () => {
    let broken = true;
    const handled: string[] = [];
    await bus.subscribe('evidence-probe', researchEvidenceAdded, async (event) => {
      if (broken) throw new Error('index unavailable');
      handled.push(event.id);
    });
    const data = { accountId: 'acc_dl', projectId: '5b1f7c43-8a3a-4c53-9a1e-8d0f8f6f1c11', evidenceIds: ['ev_1'] };
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) ids.push((await bus.publish(researchEvidenceAdded, data)).eventId);
    await vi.waitFor(async () => expect(await bus.deadLetters({ consumer: 'evidence-probe' })).toHaveLength(3), poll);
    const oldest = (await bus.deadLetters()).map((letter) => letter.envelope.id);
    broken = false;

    const first = await replay('--consumer', 'evidence-probe', '--limit', '2');

    expect(first.stdout).toContain(`research.evidence.added ${oldest[0]} → evidence-probe (had failed 2 times: index unavailable)`);
    expect(first.stdout).toContain(`2 dead letters replayed in namespace ${namespace}; 1 left.`);
    await vi.waitFor(() => expect(handled).toEqual(oldest.slice(0, 2)), poll);

    const rest = await replay();

    expect(rest.stdout).toContain('1 dead letters replayed');
    await vi.waitFor(() => expect([...handled].sort()).toEqual([...ids].sort()), poll);
    expect(await bus.deadLetters()).toEqual([]);
  });

  it('refuses a --limit that is not a positive integer', async () => {
    const failure = await replay('--limit', '0').catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1, stderr: expect.stringContaining('--limit must be a positive integer') });
  });
});
