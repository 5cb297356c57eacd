import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '@vrs/kit';

export interface RunningProcess {
  name: string;
  url: string;
  child: ChildProcess;
  logFile: string;
  /** Graceful stop (SIGTERM), escalating to SIGKILL after a deadline. */
  stop(): Promise<void>;
  /** Output seen so far (for assertions about logs). */
  output(): string;
}

/** What a process runs: its TypeScript source through tsx (tests, `npm run dev`) or its bundle from `npm run build` (production, `npm start`). */
export type ProcessCode = 'source' | 'bundle';

/**
 * Starts one of our entry points as its own process and resolves once its listening log line names
 * its URL: a TypeScript entry through tsx (`node --import tsx`), a built bundle (dist/*.mjs, see
 * `buildBundles`) with plain node. Output goes to a log file per process for post-mortems.
 */
export function startProcess(options: {
  name: string;
  /** Relative to the repository root. */
  entry: string;
  env: NodeJS.ProcessEnv;
  /** Node options before the entry (e.g. `--enable-source-maps`). */
  nodeArgs?: string[];
  logDir: string;
  /** The pino `msg` of the line that carries `url`. */
  readyMessage: string;
  timeoutMs?: number;
}): Promise<RunningProcess> {
  const logFile = join(options.logDir, `${options.name}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  // Node refuses --cpu-prof in NODE_OPTIONS; benchmarks profile the processes they start through this.
  const profile = process.env.VRS_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.VRS_CPU_PROF_DIR}`] : [];
  const loader = options.entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const nodeArgs = [...profile, ...(options.nodeArgs ?? []), ...loader];
  const child = spawn(process.execPath, [...nodeArgs, join(repoRoot, options.entry)], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    log.write(chunk);
  };
  child.stderr!.on('data', append);

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    log.end();
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.name} did not start within ${options.timeoutMs ?? 60_000} ms; output:\n${output.slice(-4000)}`));
    }, options.timeoutMs ?? 60_000);
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      append(chunk);
      buffered += chunk.toString();
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const plain = /^Video Research Service listening on (http:\/\/\S+)/.exec(line);
        if (plain && options.readyMessage === 'gateway listening') {
          clearTimeout(timer);
          resolve({ name: options.name, url: plain[1]!, child, logFile, stop, output: () => output });
          continue;
        }
        if (!line.startsWith('{')) continue;
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === options.readyMessage && entry.url) {
            clearTimeout(timer);
            resolve({ name: options.name, url: entry.url, child, logFile, stop, output: () => output });
          }
        } catch {
          // not a log line of ours
        }
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited (${code ?? signal}) before it was ready; output:\n${output.slice(-4000)}`));
    });
  });
}

export async function startServiceProcess(
  name: 'billing' | 'research' | 'provider' | 'trends' | 'monitoring' | 'agents',
  env: NodeJS.ProcessEnv,
  logDir: string,
  options: { code?: ProcessCode; nodeArgs?: string[] } = {},
) {
  return startProcess({
    name,
    entry: options.code === 'bundle' ? `dist/${name}.mjs` : `services/${name}/src/main.ts`,
    env: { ...env, SERVICE_PORT: '0' },
    logDir,
    nodeArgs: options.nodeArgs,
    readyMessage: 'service listening',
  });
}

export async function startGatewayProcess(
  name: string,
  env: NodeJS.ProcessEnv,
  logDir: string,
  options: { code?: ProcessCode; nodeArgs?: string[] } = {},
) {
  return startProcess({
    name,
    entry: options.code === 'bundle' ? 'dist/gateway.mjs' : 'gateway/src/main.ts',
    env: { PORT: '0', ...env },
    logDir,
    nodeArgs: options.nodeArgs,
    readyMessage: 'gateway listening',
  });
}

/**
 * Runs `source`, a TypeScript ES module written to `dir`, as a process of its own (through tsx) and
 * answers how it ended. One still running after `timeoutMs` is killed: a handle left open keeps a
 * finished script alive, and such a test then fails on `signal: 'SIGKILL'`.
 */
export async function runModuleToExit(
  source: string,
  dir: string,
  timeoutMs = 20_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const script = join(dir, `module-${process.pid}-${Date.now()}.mts`);
  await writeFile(script, source);
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: repoRoot, stdio: 'inherit' });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal };
}
