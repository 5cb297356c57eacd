import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, createApiKey } from '@vrs/testing/api-client';
import { startGatewayProcess, type RunningProcess } from '@vrs/testing/processes';

const stackEnv = inject('stackEnv');
const logDir = inject('logDir');

interface Outcome {
  replica: number;
  startedAt: number;
  endedAt: number;
  status: number;
  charged: number;
  balance?: number;
}

// Issue 37, money item 2 (ADR 0083): two replicas spend one balance as one, neither holding credits
// the other could have spent.
describe('two gateway replicas spending one account', () => {
  let replicas: RunningProcess[] = [];

  beforeAll(async () => {
    replicas = await Promise.all([
      startGatewayProcess('gateway-spend-a', stackEnv, logDir),
      startGatewayProcess('gateway-spend-b', stackEnv, logDir),
    ]);
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
  });

  it('both serve until the balance is really gone, and every 402 says the real balance', async () => {
    const credits = 60;
    const { key } = await createApiKey(stackEnv, { credits });
    const headers = { authorization: `Bearer ${key}` };
    const [a, b] = replicas.map((replica) => apiClient(replica.url, headers)) as [
      ReturnType<typeof apiClient>,
      ReturnType<typeof apiClient>,
    ];
    const project = await a('POST', '/v1/projects', { json: { name: 'two replicas' } });
    expect(project.status, project.text).toBe(200);
    const searchPath = `/v1/projects/${project.body.id}/search?q=replica`;

    // Three consumers on each replica search until each has been refused twice in a row.
    const outcomes: Outcome[] = [];
    const consumer = async (replica: number) => {
      const api = replica === 0 ? a : b;
      let refusals = 0;
      while (refusals < 2) {
        const startedAt = performance.now();
        const response = await api('GET', searchPath);
        const endedAt = performance.now();
        expect([200, 402], response.text).toContain(response.status);
        refusals = response.status === 402 ? refusals + 1 : 0;
        outcomes.push({
          replica,
          startedAt,
          endedAt,
          status: response.status,
          charged: Number(response.headers.get('x-credits-charged')),
          balance: response.body?.error?.details?.balance,
        });
      }
    };
    await Promise.all([0, 0, 0, 1, 1, 1].map(consumer));

    const served = outcomes.filter((outcome) => outcome.status === 200);
    const refused = outcomes.filter((outcome) => outcome.status === 402);
    // Every credit was spent, by both replicas.
    expect(served.reduce((sum, outcome) => sum + outcome.charged, 0)).toBe(credits - 1);
    expect(new Set(served.map((outcome) => outcome.replica))).toEqual(new Set([0, 1]));
    // A refusal is true: the balance was gone. Nothing was served that started after the first refusal was answered.
    for (const refusal of refused) expect(refusal.balance).toBe(0);
    const firstRefusal = Math.min(...refused.map((outcome) => outcome.endedAt));
    expect(served.filter((outcome) => outcome.startedAt > firstRefusal)).toEqual([]);
    const status = await b('GET', '/v1/billing');
    expect(status.body.credits).toMatchObject({ balance: 0, reserved: 0, spent: credits });
  });
});
