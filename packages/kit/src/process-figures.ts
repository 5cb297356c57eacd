import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Where a server answers its process figures, to callers holding the internal token. */
export const processFiguresPath = '/ops/process';

/** What one process is using now, and the worst event-loop delay since the last reset. */
export interface ProcessFigures {
  pid: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** Event-loop delay (ms) since start or the last reset, sampled every 10 ms by `monitorEventLoopDelay`. */
  eventLoopDelayMs: { max: number; p99: number; mean: number };
  /** How long the delay figures cover. */
  sinceMs: number;
  /** CPU time (user + system, every thread) the process has used since it started, in µs: a benchmark divides a phase's difference by its requests. */
  cpuMicros: number;
  /**
   * Linux only: the main thread's time on a CPU, and runnable but waiting for one, in µs since it
   * started (`/proc/self/task/<pid>/schedstat`). Over a phase, the waiting tells how much of the
   * event loop's delay came from other threads taking the cores (ADR 0068).
   */
  mainThread?: { runningMicros: number; waitingMicros: number };
}

let histogram: IntervalHistogram | undefined;
let since = performance.now();

/** Starts watching the event loop (once per process); servers call it at start. */
export function watchEventLoop(): IntervalHistogram {
  if (histogram) return histogram;
  histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  since = performance.now();
  return histogram;
}

function mainThreadSchedule(): ProcessFigures['mainThread'] {
  if (process.platform !== 'linux') return undefined;
  try {
    const [running = Number.NaN, waiting = Number.NaN] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8')
      .split(' ')
      .map(Number);
    return { runningMicros: Math.round(running / 1000), waitingMicros: Math.round(waiting / 1000) };
  } catch {
    // A kernel without schedstats: the figure is left out.
    return undefined;
  }
}

/** This process's figures; `reset` starts the delay figures afresh after reading them (a benchmark's phase). */
export function processFigures(options: { reset?: boolean } = {}): ProcessFigures {
  const h = watchEventLoop();
  const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e4) / 100;
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const figures: ProcessFigures = {
    pid: process.pid,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    eventLoopDelayMs: h.count === 0 ? { max: 0, p99: 0, mean: 0 } : { max: ms(h.max), p99: ms(h.percentile(99)), mean: ms(h.mean) },
    sinceMs: Math.round(performance.now() - since),
    cpuMicros: cpu.user + cpu.system,
    mainThread: mainThreadSchedule(),
  };
  if (options.reset) {
    h.reset();
    since = performance.now();
  }
  return figures;
}

/** Answers `GET /ops/process[?reset=true]` on a plain node:http response. */
export function sendProcessFigures(url: string | undefined, res: import('node:http').ServerResponse): void {
  const reset = new URL(url ?? '/', 'http://ops.invalid').searchParams.get('reset') === 'true';
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(processFigures({ reset })));
}
