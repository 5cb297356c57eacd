// `npm start`: the whole system in one process on embedded defaults (no database server needed;
// NATS is used when it answers, otherwise an in-process bus). Node built-ins only until installed.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import './ensure-installed.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.env.NODE_ENV === 'production';
const env = {
  ...process.env,
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
const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'gateway', 'src', 'main.ts')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
