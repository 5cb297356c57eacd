import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, sendJson as sendJsonAs } from '../http-helpers';
import { CountOverrides, type CountOverride } from './count-overrides';
import { FaultPlan, type FaultRule } from './faults';
import { loadRecordings, type LoadReport } from './recordings';
import { ReplayIndex } from './replay-index';
import { endpointOf, requestKeyOf, type RequestKey } from './request-key';
import { createStoryboardSheets } from './storyboard-sheets';

export interface FakeYouTubeOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** 127.0.0.1 by default; 0.0.0.0 to serve other containers. */
  host?: string;
  replayDirs: string[];
  /** Where unmatched requests are reported; defaults to console.warn. */
  log?: (line: string) => void;
}

export interface HitCounts {
  total: number;
  byEndpoint: Record<string, number>;
  /** `<endpoint> <clientName>` for InnerTube requests: which clients a fallback chain asked. */
  byClient: Record<string, number>;
  unmatched: number;
}

/** One request the fake received, timed on this process's `performance.now()` clock. */
export interface Exchange {
  key: RequestKey;
  receivedAt: number;
  /** When the answer was written; absent while it is delayed or for requests never answered. */
  answeredAt?: number;
}

/** The exchanges kept for `exchanges()`: the latest, so a long-running fake holds a bounded log. */
const exchangesKept = 1000;

export interface UnmatchedRequest {
  method: string;
  path: string;
  key: RequestKey | null;
}

export interface FakeYouTube {
  url: string;
  port: number;
  load: Omit<LoadReport, 'recordings'> & { recordings: number };
  close(): Promise<void>;
  /** Clears faults, latency, selections, count overrides, hit counts and the unmatched log. */
  reset(): void;
  addFault(rule: FaultRule): void;
  setLatency(delayMs: number): void;
  /** Answers a video's player requests with these counts from now on (its audience "moved"). */
  setCounts(override: CountOverride): void;
  /** Makes recording `id` win among the recordings that answer the same request. */
  select(id: string): void;
  /** Undoes `select(id)`: the group answers with its default recording again. */
  unselect(id: string): void;
  /** Switches every recording of a variant on (a search or channel page "changes"), or off again. */
  useVariant(name: string): void;
  dropVariant(name: string): void;
  hits(): HitCounts;
  /** The InnerTube and caption requests since the last reset, in the order they arrived (benchmarks time stages with it). */
  exchanges(): Exchange[];
  unmatched(): UnmatchedRequest[];
  recordings(): ReturnType<ReplayIndex['all']>;
}

/** Google's APIs answer JSON as UTF-8, so the clients parse our answers as they parse theirs. */
function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  sendJsonAs(res, status, value, headers, 'application/json; charset=UTF-8');
}

// The shape Google APIs use for HTTP-level errors, so clients parse injected failures as real ones.
function googleError(status: number): unknown {
  const statusName: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    403: 'PERMISSION_DENIED',
    429: 'RESOURCE_EXHAUSTED',
    500: 'INTERNAL',
    503: 'UNAVAILABLE',
  };
  return { error: { code: status, message: `injected fault: HTTP ${status}`, status: statusName[status] ?? 'UNKNOWN' } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeYouTube(options: FakeYouTubeOptions): Promise<FakeYouTube> {
  const log = options.log ?? ((line: string) => console.warn(line));
  const report = loadRecordings(options.replayDirs);
  const index = new ReplayIndex(report.recordings);
  const faults = new FaultPlan();
  const counts = new CountOverrides();
  const storyboards = createStoryboardSheets(report.recordings);
  let hitCounts: HitCounts = { total: 0, byEndpoint: {}, byClient: {}, unmatched: 0 };
  let unmatchedLog: UnmatchedRequest[] = [];
  let exchangeLog: Exchange[] = [];

  const reset = () => {
    faults.reset();
    counts.reset();
    index.clearSelections();
    hitCounts = { total: 0, byEndpoint: {}, byClient: {}, unmatched: 0 };
    unmatchedLog = [];
    exchangeLog = [];
  };
  const select = (id: string) => {
    if (!index.select(id)) throw new Error(`no recording with id ${id}`);
  };
  const unselect = (id: string) => {
    if (!index.unselect(id)) throw new Error(`no recording with id ${id}`);
  };

  const useVariant = (name: string) => {
    if (!index.selectVariant(name)) throw new Error(`no recording of variant ${name}`);
  };
  const dropVariant = (name: string) => {
    if (!index.unselectVariant(name)) throw new Error(`no recording of variant ${name}`);
  };

  async function control(req: IncomingMessage, res: ServerResponse, route: string): Promise<void> {
    const body = req.method === 'POST' ? await readBody(req) : '';
    const input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    if (req.method === 'POST' && route === 'faults') {
      faults.add(input as unknown as FaultRule);
      return sendJson(res, 201, { ok: true });
    }
    if (req.method === 'POST' && route === 'latency') {
      faults.setGlobalLatency(Number(input.delayMs ?? 0));
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && route === 'counts') {
      counts.set(input as unknown as CountOverride);
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && route === 'reset') {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && route === 'select') {
      if (!index.select(String(input.id))) return sendJson(res, 404, { error: `no recording with id ${String(input.id)}` });
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && route === 'unselect') {
      if (!index.unselect(String(input.id))) return sendJson(res, 404, { error: `no recording with id ${String(input.id)}` });
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'POST' && route === 'variant') {
      const name = String(input.name);
      const found = input.on === false ? index.unselectVariant(name) : index.selectVariant(name);
      if (!found) return sendJson(res, 404, { error: `no recording of variant ${name}` });
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === 'GET' && route === 'hits') return sendJson(res, 200, hitCounts);
    if (req.method === 'GET' && route === 'unmatched') return sendJson(res, 200, unmatchedLog);
    if (req.method === 'GET' && route === 'recordings') {
      return sendJson(
        res,
        200,
        index.all().map(({ id, key, recordedAt, status, note, variant }) => ({
          id,
          ...key,
          recordedAt: new Date(recordedAt).toISOString(),
          status,
          note,
          variant,
        })),
      );
    }
    sendJson(res, 404, { error: `unknown control route ${req.method} /__control/${route}` });
  }

  /** A generated storyboard sheet (endpoint `storyboard`); faults match it by videoId, level and sheet name. */
  async function storyboardSheet(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const keys = storyboards.keyOf(pathname);
    hitCounts.total += 1;
    hitCounts.byEndpoint.storyboard = (hitCounts.byEndpoint.storyboard ?? 0) + 1;
    const key: RequestKey | null = keys ? { endpoint: 'storyboard', clientName: null, fields: null, keys } : null;
    const fault = faults.decide(key, 'storyboard');
    if (fault.kind === 'timeout') return;
    if (fault.kind !== 'none' && fault.delayMs > 0) await sleep(fault.delayMs);
    if (fault.kind === 'status') return sendJson(res, fault.status, googleError(fault.status));
    const found = await storyboards.sheet(pathname);
    if (!found) {
      hitCounts.unmatched += 1;
      unmatchedLog.push({ method: req.method ?? 'GET', path: pathname, key });
      return sendJson(res, 404, { error: { code: 404, status: 'NOT_FOUND', message: 'No recorded storyboard spec names this sheet.' } });
    }
    if (fault.kind === 'empty') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      return void res.end();
    }
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(found.jpeg.byteLength) });
    res.end(found.jpeg);
  }

  async function replay(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (pathname.startsWith('/sb/')) return storyboardSheet(req, res, pathname);
    const receivedAt = performance.now();
    const body = await readBody(req);
    const endpoint = endpointOf(pathname);
    if (!endpoint) {
      return sendJson(res, 404, { error: { code: 404, status: 'NOT_FOUND', message: `the fake YouTube does not serve ${pathname}` } });
    }
    hitCounts.total += 1;
    hitCounts.byEndpoint[endpoint] = (hitCounts.byEndpoint[endpoint] ?? 0) + 1;
    let key: RequestKey | null;
    try {
      key = requestKeyOf({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
    } catch (error) {
      return sendJson(res, 400, {
        error: { code: 400, status: 'INVALID_ARGUMENT', message: `Invalid JSON payload: ${(error as Error).message}` },
      });
    }
    if (key?.clientName) {
      const asked = `${endpoint} ${key.clientName}`;
      hitCounts.byClient[asked] = (hitCounts.byClient[asked] ?? 0) + 1;
    }
    if (key) {
      const exchange: Exchange = { key, receivedAt };
      exchangeLog.push(exchange);
      if (exchangeLog.length > exchangesKept) exchangeLog.shift();
      res.once('finish', () => {
        exchange.answeredAt = performance.now();
      });
    }
    const fault = faults.decide(key, endpoint);
    if (fault.kind === 'timeout') return; // never answered; close() drops the connection
    if (fault.kind !== 'none' && fault.delayMs > 0) await sleep(fault.delayMs);
    if (fault.kind === 'status') {
      const retryAfter: Record<string, string> =
        fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
      return sendJson(res, fault.status, googleError(fault.status), retryAfter);
    }
    const answer = key ? index.find(key) : undefined;
    if (!answer) {
      hitCounts.unmatched += 1;
      unmatchedLog.push({ method: req.method ?? 'GET', path: pathname, key });
      log(`[fake-youtube] no recording for ${req.method} ${pathname} ${JSON.stringify(key)}`);
      return sendJson(res, 404, {
        error: {
          code: 404,
          status: 'NOT_FOUND',
          message: 'The fake YouTube upstream has no recording for this request.',
          asked: key,
        },
      });
    }
    if (fault.kind === 'empty') {
      res.writeHead(200, { 'content-type': answer.contentType, 'x-replay-recording': answer.recording.id });
      return void res.end();
    }
    const headers: Record<string, string> = { 'content-type': answer.contentType, 'x-replay-recording': answer.recording.id };
    if (answer.projectedThrough) headers['x-replay-projected-fields'] = answer.projectedThrough;
    res.writeHead(answer.status, headers);
    res.end(counts.apply(key, endpoint, answer.body));
  }

  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://fake.invalid');
    const handler = pathname.startsWith('/__control/')
      ? control(req, res, pathname.slice('/__control/'.length))
      : replay(req, res, pathname);
    handler.catch((error: Error) => {
      if (!res.headersSent) sendJson(res, 500, { error: { code: 500, message: error.message } });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = !options.host || options.host === '0.0.0.0' ? '127.0.0.1' : options.host;

  return {
    url: `http://${host}:${port}`,
    port,
    load: { recordings: report.recordings.length, unparsable: report.unparsable, skipped: report.skipped },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
    reset,
    addFault: (rule) => faults.add(rule),
    setLatency: (delayMs) => faults.setGlobalLatency(delayMs),
    setCounts: (override) => counts.set(override),
    select,
    unselect,
    useVariant,
    dropVariant,
    hits: () => structuredClone(hitCounts),
    exchanges: () => structuredClone(exchangeLog),
    unmatched: () => [...unmatchedLog],
    recordings: () => index.all(),
  };
}
