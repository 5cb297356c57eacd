// `npm start`: the whole system in one process on embedded defaults (no database server needed;
// NATS is used when it answers, otherwise an in-process bus). Node built-ins only until installed.
// It builds the bundles first (`npm run build`: turbo's cached `//#bundle` task, which restores dist/
// from its cache or leaves it be when no input changed), so it never runs a stale one, then runs
// dist/gateway.mjs in this very process (ADR 0043).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import './ensure-installed.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.env.NODE_ENV === 'production';
const defaults = {
  SERVICES_MODE: process.env.SERVICES_MODE ?? 'inprocess',
  DEMO_MODE: process.env.DEMO_MODE ?? (production ? 'false' : 'true'),
  // A fixed token is fine on a developer's loopback; production must set its own.
  INTERNAL_TOKEN: process.env.INTERNAL_TOKEN ?? (production ? undefined : 'local-development-internal-token'),
  // Local receivers (a webhook on localhost) are what development needs; production refuses private targets.
  WEBHOOKS_ALLOW_PRIVATE: process.env.WEBHOOKS_ALLOW_PRIVATE ?? (production ? 'false' : 'true'),
  // Agent runs on, for demo users, so a newcomer can try them (ADR 0025); production keeps its own settings.
  AGENTS_ENABLED: process.env.AGENTS_ENABLED ?? (production ? undefined : 'true'),
  AGENTS_DEMO_ACCESS: process.env.AGENTS_DEMO_ACCESS ?? (production ? undefined : 'true'),
};
for (const [name, value] of Object.entries(defaults)) if (value !== undefined) process.env[name] = value;
process.chdir(root);

// Its own process, so esbuild's service process does not outlive the build beside the gateway. turbo's
// own warnings (stderr) are shown only if the build fails: the gateway's first line of output stays its own.
const turbo = join(root, 'node_modules', '.bin', 'turbo');
const build = spawnSync(turbo, ['run', '//#bundle', '--output-logs=new-only'], { cwd: root, stdio: ['ignore', 'inherit', 'pipe'] });
if (build.status !== 0) {
  process.stderr.write(build.stderr ?? '');
  process.exit(build.status ?? 1);
}
await import(pathToFileURL(join(root, 'dist', 'gateway.mjs')).href);
