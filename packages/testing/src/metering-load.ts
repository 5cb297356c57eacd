import { apiClient } from './api-client';

/** What a metered load saw, response by response, summed. */
export interface MeteredLoadOutcome {
  requests: number;
  byStatus: Record<number, number>;
  /** Sum of X-Credits-Charged over every response. */
  charged: number;
  /** Responses that broke the contract's credit headers (a 402 without both, a negative remaining, a metered 200 without them). */
  headerViolations: string[];
  lowestRemaining: number;
}

/** The account's own figures after the load, as a consumer reads them. */
export interface LedgerCheck {
  balance: number;
  reserved: number;
  spent: number;
  granted: number;
  ledgerSum: number;
}

/**
 * Drives `connections` concurrent consumers against the metered search of one project for
 * `durationMs` (one request in `refundEvery` at a project that does not exist: a 404, refunded), through
 * real HTTP as a REST consumer would, and checks every response's credit headers (issue 15 goal 4).
 */
export async function driveMeteredLoad(options: {
  gatewayUrl: string;
  headers: Record<string, string>;
  projectId: string;
  connections: number;
  durationMs: number;
  refundEvery?: number;
  /** Go on past `durationMs` until a 402 was answered (the balance ran out), for at most this long in all. */
  untilRefusedWithinMs?: number;
}): Promise<MeteredLoadOutcome> {
  const api = apiClient(options.gatewayUrl, options.headers);
  const outcome: MeteredLoadOutcome = {
    requests: 0,
    byStatus: {},
    charged: 0,
    headerViolations: [],
    lowestRemaining: Number.POSITIVE_INFINITY,
  };
  const started = Date.now();
  const goOn = () => {
    const elapsed = Date.now() - started;
    if (elapsed < options.durationMs) return true;
    return options.untilRefusedWithinMs !== undefined && !outcome.byStatus[402] && elapsed < options.untilRefusedWithinMs;
  };
  const refundEvery = options.refundEvery ?? 7;
  const missingProject = '00000000-0000-4000-8000-000000000000';
  const worker = async (n: number) => {
    for (let i = 0; goOn(); i++) {
      const project = (n + i) % refundEvery === 0 ? missingProject : options.projectId;
      const response = await api('GET', `/v1/projects/${project}/search?q=load`);
      outcome.requests++;
      outcome.byStatus[response.status] = (outcome.byStatus[response.status] ?? 0) + 1;
      const charged = response.headers.get('x-credits-charged');
      const remaining = response.headers.get('x-credits-remaining');
      if ((response.status === 200 || response.status === 402) && (charged === null || remaining === null))
        outcome.headerViolations.push(`${response.status} without both credit headers`);
      if (response.status === 402 && charged !== '0') outcome.headerViolations.push(`402 charged ${charged}`);
      if (remaining !== null) {
        if (Number(remaining) < 0) outcome.headerViolations.push(`remaining ${remaining}`);
        outcome.lowestRemaining = Math.min(outcome.lowestRemaining, Number(remaining));
      }
      outcome.charged += Number(charged ?? 0);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, n) => worker(n)));
  return outcome;
}

/** The account's balance figures and its whole ledger summed, read through the public API. */
export async function ledgerCheck(gatewayUrl: string, headers: Record<string, string>): Promise<LedgerCheck> {
  const api = apiClient(gatewayUrl, headers);
  const { body: billing } = await api('GET', '/v1/billing');
  let ledgerSum = 0;
  let cursor: string | undefined;
  for (;;) {
    const page = await api('GET', `/v1/billing/ledger?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    if (page.status !== 200) throw new Error(`ledger: ${page.status} ${page.text}`);
    ledgerSum += (page.body.data as { amount: number }[]).reduce((sum, entry) => sum + entry.amount, 0);
    if (!page.body.hasMore) break;
    cursor = page.body.nextCursor;
  }
  const { balance, reserved, spent, granted } = billing.credits;
  return { balance, reserved, spent, granted, ledgerSum };
}
