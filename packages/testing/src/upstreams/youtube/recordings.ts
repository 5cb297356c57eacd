import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { requestKeyOf, signatureOf, type RequestKey } from './request-key';

/** One replayable exchange, whatever file format it came from. */
export interface Recording {
  /** `<replay dir name>/<path inside it>`, plus `#<n>` for files holding several exchanges. */
  id: string;
  file: string;
  format: 'newpipe' | 'project';
  key: RequestKey;
  signature: string;
  /** Milliseconds since the epoch, from the `date` response header; 0 when unknown. */
  recordedAt: number;
  status: number;
  contentType: string;
  body: string;
  note?: string;
  /** An authored or later answer that replaces its group's default only while a test switches it on. */
  variant?: string;
}

export interface LoadReport {
  recordings: Recording[];
  /** JSON files that are neither format, or whose exchange cannot be keyed. */
  unparsable: { file: string; reason: string }[];
  /** Exchanges deliberately left out (e.g. a `bodyFile` whose replay dir is not configured). */
  skipped: { file: string; reason: string }[];
}

type HeaderMap = Record<string, string | string[] | undefined>;

interface NewPipeExchange {
  request: { httpMethod: string; url: string; headers?: HeaderMap; dataToSend?: number[] | null };
  response: { responseCode: number; responseHeaders?: HeaderMap; responseBody: string };
}

/** The project's own format: see README.md beside this file. */
interface ProjectFile {
  format: 'vrs-youtube-exchanges';
  note?: string;
  exchanges: ProjectExchange[];
}

interface ProjectExchange {
  note?: string;
  /** Named alternative answer (a later page, an authored change): served only while switched on. */
  variant?: string;
  request: {
    method?: string;
    url: string;
    clientName?: string;
    headers?: Record<string, string>;
    body?: Record<string, unknown>;
  };
  response: {
    status?: number;
    recordedAt?: string;
    headers?: Record<string, string>;
    body?: unknown;
    bodyFile?: string;
    wrapBodyIn?: string;
  };
}

function walkJsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walkJsonFiles(full));
    else if (entry.isFile() && entry.name.endsWith('.json')) out.push(full);
  }
  return out.sort();
}

function firstHeader(headers: HeaderMap | undefined, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function parseDate(value: string | undefined): number {
  if (!value) return 0;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? 0 : ms;
}

function isNewPipe(value: unknown): value is NewPipeExchange {
  const v = value as NewPipeExchange;
  return typeof v?.request?.httpMethod === 'string' && typeof v?.response?.responseCode === 'number';
}

function isProjectFile(value: unknown): value is ProjectFile {
  const v = value as ProjectFile;
  return v?.format === 'vrs-youtube-exchanges' && Array.isArray(v.exchanges);
}

function keyed(request: Parameters<typeof requestKeyOf>[0]): RequestKey {
  const key = requestKeyOf(request);
  if (!key) throw new Error(`not an InnerTube or timedtext URL: ${request.url}`);
  return key;
}

function fromNewPipe(id: string, file: string, exchange: NewPipeExchange): Recording {
  const bytes = exchange.request.dataToSend ?? [];
  // Java byte[] is signed: mask back to 0..255 before decoding the UTF-8 JSON body.
  const body = Buffer.from(bytes.map((b) => b & 0xff)).toString('utf8');
  const key = keyed({
    method: exchange.request.httpMethod,
    url: exchange.request.url,
    headers: exchange.request.headers ?? {},
    body,
  });
  return {
    id,
    file,
    format: 'newpipe',
    key,
    signature: signatureOf(key),
    recordedAt: parseDate(firstHeader(exchange.response.responseHeaders, 'date')),
    status: exchange.response.responseCode,
    contentType: firstHeader(exchange.response.responseHeaders, 'content-type') ?? 'application/json; charset=UTF-8',
    body: exchange.response.responseBody,
  };
}

function resolveBodyFile(relative: string, replayDirs: string[]): string | undefined {
  for (const dir of replayDirs) {
    const candidate = path.join(dir, relative);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function fromProject(id: string, file: string, exchange: ProjectExchange, replayDirs: string[]): Recording | { skipped: string } {
  const { request, response } = exchange;
  const body = request.body
    ? JSON.stringify(request.clientName ? { context: { client: { clientName: request.clientName } }, ...request.body } : request.body)
    : '';
  const key = keyed({ method: request.method ?? 'POST', url: request.url, headers: request.headers ?? {}, body });
  let responseBody: string;
  if (response.bodyFile) {
    const found = resolveBodyFile(response.bodyFile, replayDirs);
    if (!found) return { skipped: `bodyFile ${response.bodyFile} is in none of the replay dirs` };
    responseBody = readFileSync(found, 'utf8');
  } else if (typeof response.body === 'string') {
    responseBody = response.body;
  } else {
    responseBody = response.body === undefined ? '' : JSON.stringify(response.body);
  }
  if (response.wrapBodyIn) responseBody = JSON.stringify({ [response.wrapBodyIn]: JSON.parse(responseBody) });
  return {
    id,
    file,
    format: 'project',
    key,
    signature: signatureOf(key),
    recordedAt: parseDate(response.recordedAt ?? response.headers?.date),
    status: response.status ?? 200,
    contentType: response.headers?.['content-type'] ?? 'application/json; charset=UTF-8',
    body: responseBody,
    note: exchange.note,
    ...(exchange.variant ? { variant: exchange.variant } : {}),
  };
}

/** Loads every `*.json` recording below each replay dir (recursively), in either format. */
export function loadRecordings(replayDirs: string[]): LoadReport {
  const report: LoadReport = { recordings: [], unparsable: [], skipped: [] };
  for (const dir of replayDirs) {
    if (!existsSync(dir)) {
      report.skipped.push({ file: dir, reason: 'replay dir does not exist' });
      continue;
    }
    for (const file of walkJsonFiles(dir)) {
      const id = `${path.basename(dir)}/${path.relative(dir, file).split(path.sep).join('/')}`;
      try {
        const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
        if (isNewPipe(parsed)) {
          report.recordings.push(fromNewPipe(id, file, parsed));
        } else if (isProjectFile(parsed)) {
          parsed.exchanges.forEach((exchange, index) => {
            const result = fromProject(`${id}#${index}`, file, exchange, replayDirs);
            if ('skipped' in result) report.skipped.push({ file: `${id}#${index}`, reason: result.skipped });
            else report.recordings.push(result);
          });
        } else {
          report.unparsable.push({ file, reason: 'neither a NewPipe mock nor a vrs-youtube-exchanges file' });
        }
      } catch (error) {
        report.unparsable.push({ file, reason: (error as Error).message });
      }
    }
  }
  return report;
}
