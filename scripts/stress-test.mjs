// `npm run test:stress [-- --runs 5 --burners 2]`: the whole vitest suite, run after run, while
// busy loops load every core (what CI's neighbours and `stress --cpu N` do to timing). Stops at the
// first failing run and keeps its output, so a test that depends on timing is caught here, not in CI.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, burners: { type: 'string', default: String(availableParallelism()) } },
});
const runs = Number(values.runs);
const burners = Array.from({ length: Number(values.burners) }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopBurners = () => {
  for (const burner of burners) burner.kill('SIGKILL');
};
// The busy loops keep this process alive, so it ends by process.exit, which stops them; a signal too.
process.on('exit', stopBurners);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

const logDir = mkdtempSync(join(tmpdir(), 'vrs-stress-'));
console.log(`${runs} runs of the suite with ${burners.length} busy loops beside them; output in ${logDir}`);
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const output = [];
  const code = await new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  const text = Buffer.concat(output).toString();
  writeFileSync(join(logDir, `run-${run}.log`), text);
  const summary = /Tests\s+(.*)/.exec(text)?.[1]?.trim() ?? 'no summary';
  console.log(`run ${run}/${runs}: ${code === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s (${summary})`);
  if (code !== 0) {
    console.log(
      text
        .split('\n')
        .filter((line) => /FAIL|×|AssertionError|Error:/.test(line))
        .slice(0, 40)
        .join('\n'),
    );
    process.exit(1);
  }
}
console.log(`all ${runs} runs passed`);
process.exit(0);
