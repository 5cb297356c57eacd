import type { RequestKey } from './request-key';

/**
 * Failures a test injects: `status` answers with that HTTP status, `empty` answers 200 with no
 * body (what YouTube does to caption requests that lack a PO token), `timeout` never answers,
 * `latency` delays the normal answer. `times` bounds how many requests a rule hits (default: all).
 */
export type FaultKind = 'latency' | 'status' | 'timeout' | 'empty';

export interface FaultMatch {
  endpoint?: string;
  clientName?: string;
  videoId?: string;
  browseId?: string;
  continuation?: string;
  query?: string;
  /** timedtext `v`, `lang`, `kind`, `tlang`, `fmt` match the caption query the same way. */
  v?: string;
  lang?: string;
  kind?: string;
  tlang?: string;
  fmt?: string;
  /** Storyboard sheets (endpoint `storyboard`): the level's position and the sheet's name (`M0`, `default`). */
  level?: string;
  sheet?: string;
}

export interface FaultRule {
  match?: FaultMatch;
  kind: FaultKind;
  status?: number;
  /** Sent as `Retry-After` with a `status` fault (a 429 gets 1 unless told otherwise; others none). */
  retryAfterSeconds?: number;
  delayMs?: number;
  times?: number;
}

export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'latency'; delayMs: number }
  | { kind: 'status'; status: number; delayMs: number; retryAfterSeconds?: number }
  | { kind: 'timeout' }
  | { kind: 'empty'; delayMs: number };

interface ActiveRule extends FaultRule {
  remaining: number;
}

function matches(match: FaultMatch | undefined, key: RequestKey | null, endpoint: string): boolean {
  if (!match) return true;
  for (const [name, wanted] of Object.entries(match)) {
    if (wanted === undefined) continue;
    if (name === 'endpoint') {
      if (endpoint !== wanted) return false;
    } else if (name === 'clientName') {
      if (key?.clientName !== wanted) return false;
    } else if (key?.keys[name] !== wanted) {
      return false;
    }
  }
  return true;
}

export class FaultPlan {
  #rules: ActiveRule[] = [];
  #globalLatencyMs = 0;

  add(rule: FaultRule): void {
    if (rule.kind === 'status' && !rule.status) throw new Error('a status fault needs `status`');
    this.#rules.push({ ...rule, remaining: rule.times ?? Number.POSITIVE_INFINITY });
  }

  setGlobalLatency(delayMs: number): void {
    this.#globalLatencyMs = delayMs;
  }

  reset(): void {
    this.#rules = [];
    this.#globalLatencyMs = 0;
  }

  /** The first live rule that matches decides; using it counts against its `times`. */
  decide(key: RequestKey | null, endpoint: string): FaultDecision {
    const rule = this.#rules.find((r) => r.remaining > 0 && matches(r.match, key, endpoint));
    const base = this.#globalLatencyMs;
    if (!rule) return base > 0 ? { kind: 'latency', delayMs: base } : { kind: 'none' };
    rule.remaining -= 1;
    const delayMs = base + (rule.delayMs ?? 0);
    switch (rule.kind) {
      case 'latency':
        return { kind: 'latency', delayMs };
      case 'status':
        return {
          kind: 'status',
          status: rule.status as number,
          delayMs,
          retryAfterSeconds: rule.retryAfterSeconds ?? (rule.status === 429 ? 1 : undefined),
        };
      case 'timeout':
        return { kind: 'timeout' };
      case 'empty':
        return { kind: 'empty', delayMs };
    }
  }
}
