import { SingleBar } from 'cli-progress';
import ora from 'ora';
import type { Output } from './output';

/** A progress bar on a terminal; elsewhere a line each time the figure changes (logs and CI stay readable). */
export function progressBar(out: Output, label: string) {
  if (out.interactive) {
    const bar = new SingleBar({
      format: `${label} [{bar}] {value}/{total} {status}`,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: false,
    });
    return {
      update(done: number, total: number, status: string) {
        if (!bar.isActive) bar.start(Math.max(total, 1), done, { status });
        bar.setTotal(Math.max(total, 1));
        bar.update(done, { status });
      },
      // A bar never started stops as a no-op.
      stop() {
        bar.stop();
      },
    };
  }
  let last = '';
  return {
    update(done: number, total: number, status: string) {
      // Before the job has resolved its videos there is no total to show: only its state.
      const line = total === 0 ? `${label}: ${status}` : `${label}: ${done}/${total} videos (${status})`;
      if (line !== last) out.note(line);
      last = line;
    },
    stop() {},
  };
}

/** A spinner on a terminal while something is awaited; nothing elsewhere. */
export async function withSpinner<T>(out: Output, text: string, work: () => Promise<T>): Promise<T> {
  if (!out.interactive) return work();
  const spinner = ora({ text, stream: process.stderr }).start();
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}
