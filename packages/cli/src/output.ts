import Table from 'cli-table3';
import { createColors } from 'picocolors';
import { ApiError, type ResponseMeta } from '@vrs/client';

export interface OutputOptions {
  json: boolean;
  stdout?: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean };
  stderr?: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean };
  env?: NodeJS.ProcessEnv;
}

/** Colours only on a terminal, never when NO_COLOR is set (https://no-color.org) or for --json. */
export function colorsEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, json: boolean): boolean {
  if (json || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
  return stream.isTTY === true;
}

/**
 * Everything `vrs` prints. Results go to stdout (JSON with --json, tables and text otherwise);
 * progress, notes and errors go to stderr so stdout stays parseable.
 */
export class Output {
  readonly json: boolean;
  readonly colors: ReturnType<typeof createColors>;
  readonly interactive: boolean;
  private readonly out: NonNullable<OutputOptions['stdout']>;
  private readonly err: NonNullable<OutputOptions['stderr']>;

  constructor(options: OutputOptions) {
    this.json = options.json;
    this.out = options.stdout ?? process.stdout;
    this.err = options.stderr ?? process.stderr;
    const env = options.env ?? process.env;
    this.colors = createColors(colorsEnabled(this.out, env, options.json));
    this.interactive = this.err.isTTY === true && !options.json;
  }

  /** The command's result: as JSON with --json, else what `human` prints. */
  result<T>(data: T, human: (data: T) => string): void {
    this.out.write(this.json ? `${JSON.stringify(data, null, 2)}\n` : ensureNewline(human(data)));
  }

  /** Progress and notes: stderr, silent with --json. */
  note(text: string): void {
    if (!this.json) this.err.write(ensureNewline(text));
  }

  /** Events of a stream: stderr, one JSON line each with --json (stdout keeps the final result). */
  event(data: unknown, human: string): void {
    this.err.write(this.json ? `${JSON.stringify(data)}\n` : ensureNewline(human));
  }

  error(error: unknown): void {
    this.err.write(this.json ? `${JSON.stringify(errorJson(error))}\n` : ensureNewline(formatError(error, this.colors)));
  }

  table(head: string[], rows: (string | number | null | undefined)[][]): string {
    return renderTable(head, rows, this.colors);
  }
}

const ensureNewline = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

export function renderTable(
  head: string[],
  rows: (string | number | null | undefined)[][],
  colors: ReturnType<typeof createColors> = createColors(false),
): string {
  if (rows.length === 0) return colors.dim('(none)');
  const table = new Table({
    head: head.map((title) => colors.bold(title)),
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const row of rows) table.push(row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
  return table.toString();
}

/** `Error: message` and, for API errors, the code and the request id support asks for. */
export function formatError(error: unknown, colors: ReturnType<typeof createColors> = createColors(false)): string {
  if (error instanceof ApiError) {
    const lines = [
      `${colors.red('Error:')} ${error.message}`,
      colors.dim(`  code: ${error.code}${error.status ? ` (HTTP ${error.status})` : ''}`),
    ];
    if (error.requestId) lines.push(colors.dim(`  requestId: ${error.requestId}`));
    if (errorHints[error.code]) lines.push(`  ${errorHints[error.code]}`);
    const issues = (error.details as { issues?: { path: string; message: string }[] } | undefined)?.issues;
    for (const issue of issues ?? []) lines.push(colors.dim(`  ${issue.path || '(input)'}: ${issue.message}`));
    return lines.join('\n');
  }
  return `${colors.red('Error:')} ${(error as Error)?.message ?? String(error)}`;
}

/** Codes for the failures the CLI finds itself, beside the API's own. */
const cliErrorCodes: Record<string, string> = {
  UsageError: 'USAGE',
  NotSignedInError: 'NOT_SIGNED_IN',
  FailedWorkError: 'WORK_FAILED',
  DeviceFlowError: 'DEVICE_FLOW_FAILED',
};

export function errorJson(error: unknown) {
  if (error instanceof ApiError) {
    return {
      error: {
        code: error.code,
        message: error.message,
        status: error.status,
        requestId: error.requestId,
        ...(error.details === undefined ? {} : { details: error.details }),
      },
    };
  }
  return { error: { code: cliErrorCodes[(error as Error)?.name] ?? 'CLI_ERROR', message: (error as Error)?.message ?? String(error) } };
}

/** Every line after the first indented by `spaces`, so a multi-line item stays under its marker. */
export const indentLines = (text: string, spaces: number) => text.replace(/\r?\n/g, `\n${' '.repeat(spaces)}`);

/** A warning as `CODE: message` (the API's `{code, message}`), or the text of a plain one. */
export const warningText = (warning: string | { code: string; message: string }) =>
  typeof warning === 'string' ? warning : `${warning.code}: ${warning.message}`;

/** The note on admitted paid work (an import job, an agent run): the credits it holds, and what was charged now. */
export const heldCreditsNote = (work: string, held: number | undefined, meta: ResponseMeta) =>
  `${work}: ${held ?? 0} credits held until it ends` +
  (meta.credits ? ` (charged now: ${meta.credits.charged}, balance: ${meta.credits.remaining}).` : '.');

/** What to do about an error the caller cannot fix by retrying. */
const errorHints: Record<string, string> = {
  AGENTS_NOT_ENABLED:
    'An operator must allow this account to run agents: `npm run agents:allow -- --account <accountId>` (the id is in `vrs auth whoami`).',
};

/** Numbers as people read them: 1234567 → 1,234,567; null as a dash. */
export const count = (value: number | null | undefined) => (value === null || value === undefined ? '–' : value.toLocaleString('en-US'));

/** Milliseconds as `[h:]mm:ss`, as the MCP tools write timestamps. */
export { timestamp as clock } from '@vrs/mcp/tool-result';
