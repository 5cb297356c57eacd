import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
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

/**
 * Starts one of our entry points as its own process (`node --import tsx`) and resolves once its
 * listening log line names its URL. Output goes to a log file per process for post-mortems.
 */
export function startProcess(options: {
  name: string;
  entry: string;
  env: NodeJS.ProcessEnv;
  logDir: string;
  /** The pino `msg` of the line that carries `url`. */
  readyMessage: string;
  timeoutMs?: number;
}): Promise<RunningProcess> {
  const logFile = join(options.logDir, `${options.name}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  // Node refuses --cpu-prof in NODE_OPTIONS; benchmarks profile the processes they start through this.
  const profile = process.env.VRS_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.VRS_CPU_PROF_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', join(repoRoot, options.entry)], {
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
) {
  return startProcess({
    name,
    entry: `services/${name}/src/main.ts`,
    env: { ...env, SERVICE_PORT: '0' },
    logDir,
    readyMessage: 'service listening',
  });
}

export async function startGatewayProcess(name: string, env: NodeJS.ProcessEnv, logDir: string) {
  return startProcess({
    name,
    entry: 'gateway/src/main.ts',
    env: { PORT: '0', ...env },
    logDir,
    readyMessage: 'gateway listening',
  });
}
