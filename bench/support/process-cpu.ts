import { readFileSync } from 'node:fs';

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux); null elsewhere. A
 * benchmark bound by its upstream's latency should spend little of its wall time on the CPU: when
 * the figure nears the elapsed time, the process, not the upstream, sets the pace.
 */
export function cpuMsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticksPerMs = 100 / 1000;
    return (Number(fields[11]) + Number(fields[12])) / ticksPerMs;
  } catch {
    return null;
  }
}
