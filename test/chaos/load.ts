/** What one request of the chaos load got: an HTTP status, or no answer at all. */
export interface Outcome {
  operation: 'createProject' | 'addEvidence' | 'search' | 'createImport' | 'createExport';
  /** Index of the gateway replica asked. */
  gateway: number;
  startedAt: number;
  endedAt: number;
  /** `connection` when no answer came (the replica was down or died mid-request). */
  status: number | 'connection';
  /** X-Credits-Charged of the answer (0 when absent). */
  charged: number;
  /** The error envelope's code, or the connection error's message. */
  error?: string;
}

/** Writes the stack acknowledged with a 2xx, to look for afterwards. */
export interface Acknowledged {
  projects: Array<{ user: string; id: string }>;
  evidence: Array<{ user: string; projectId: string; id: string; token: string }>;
  imports: Array<{ user: string; projectId: string; jobId: string }>;
  exports: Array<{ user: string; projectId: string; id: string }>;
}

export interface Answer {
  status: number;
  body: any;
  charged: number;
}

const requestTimeoutMs = 60_000;
const failurePauseMs = 200;

/** One request through real HTTP; throws only when no answer came. */
export async function call(baseUrl: string, user: string, method: string, path: string, json?: unknown): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'x-demo-user': user, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
    signal: AbortSignal.timeout(requestTimeoutMs),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: response.status, body, charged: Number(response.headers.get('x-credits-charged') ?? 0) };
}

/** The order each load worker goes through its operations: mostly evidence and searches, a job now and then. */
const cycle: Outcome['operation'][] = [
  'addEvidence',
  'search',
  'addEvidence',
  'search',
  'createProject',
  'search',
  'createImport',
  'addEvidence',
  'search',
  'createExport',
];

/**
 * `workers` demo accounts, each writing and searching its own projects while `goOn()`, every
 * request to the next gateway replica in turn (as a round-robin balancer would, without health checks).
 */
export async function driveChaosLoad(options: {
  gatewayUrls: string[];
  workers: number;
  /** Whether to send more: the load goes on until this says no. */
  goOn: () => boolean;
  importVideoId: string;
}): Promise<{ outcomes: Outcome[]; acknowledged: Acknowledged; users: string[] }> {
  const outcomes: Outcome[] = [];
  const acknowledged: Acknowledged = { projects: [], evidence: [], imports: [], exports: [] };
  const run = Math.random().toString(36).slice(2, 8);
  const users = Array.from({ length: options.workers }, (_, n) => `chaos-${run}-${n}`);
  let turn = 0;

  async function attempt(operation: Outcome['operation'], user: string, method: string, path: string, json?: unknown) {
    const gateway = turn++ % options.gatewayUrls.length;
    const startedAt = Date.now();
    try {
      const answer = await call(options.gatewayUrls[gateway]!, user, method, path, json);
      const error = answer.status >= 400 ? (answer.body?.error?.code ?? String(answer.body).slice(0, 200)) : undefined;
      outcomes.push({ operation, gateway, startedAt, endedAt: Date.now(), status: answer.status, charged: answer.charged, error });
      if (answer.status >= 200 && answer.status < 300) return answer;
    } catch (error) {
      const cause = (error as Error & { cause?: Error }).cause;
      outcomes.push({
        operation,
        gateway,
        startedAt,
        endedAt: Date.now(),
        status: 'connection',
        charged: 0,
        error: cause?.message ?? String(error),
      });
    }
    // A client pauses after a failure rather than hammering a stack that is recovering.
    await new Promise((resolve) => setTimeout(resolve, failurePauseMs));
    return undefined;
  }

  async function createProject(user: string, name: string): Promise<string | undefined> {
    const created = await attempt('createProject', user, 'POST', '/v1/projects', { name });
    if (!created) return undefined;
    acknowledged.projects.push({ user, id: created.body.id });
    return created.body.id as string;
  }

  async function worker(n: number): Promise<void> {
    const user = users[n]!;
    let projectId: string | undefined;
    let lastToken = 'espresso';
    for (let step = 0; options.goOn(); step++) {
      projectId ??= await createProject(user, `chaos ${n}`);
      if (!projectId) continue;
      const operation = cycle[(step + n) % cycle.length]!;
      if (operation === 'createProject') {
        projectId = (await createProject(user, `chaos ${n}.${step}`)) ?? projectId;
      } else if (operation === 'addEvidence') {
        const token = `chaos${n}x${step}${run}`;
        const added = await attempt('addEvidence', user, 'POST', `/v1/projects/${projectId}/evidence`, {
          items: [{ text: `A chaos note ${token} about brewing espresso under load.`, sourceKey: `note:${token}` }],
        });
        if (added) {
          acknowledged.evidence.push({ user, projectId, id: added.body.items[0].id, token });
          lastToken = token;
        }
      } else if (operation === 'search') {
        await attempt('search', user, 'GET', `/v1/projects/${projectId}/search?q=${lastToken}`);
      } else if (operation === 'createImport') {
        // A project of its own, so what the import wrote can be counted.
        const target = await createProject(user, `chaos import ${n}.${step}`);
        if (!target) continue;
        const created = await attempt('createImport', user, 'POST', `/v1/projects/${target}/imports`, {
          source: { type: 'videos', ids: [options.importVideoId] },
        });
        if (created) acknowledged.imports.push({ user, projectId: target, jobId: created.body.id });
      } else {
        const created = await attempt('createExport', user, 'POST', '/v1/exports', { projectId, format: 'csv' });
        if (created) acknowledged.exports.push({ user, projectId, id: created.body.id });
      }
    }
  }

  await Promise.all(Array.from({ length: options.workers }, (_, n) => worker(n)));
  return { outcomes, acknowledged, users };
}
