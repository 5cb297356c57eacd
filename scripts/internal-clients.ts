// Adds a named internal client (a fresh secret, printed once; only its SHA-256 is kept) or revokes
// one, in the credentials file the services watch (INTERNAL_CLIENTS_FILE): the services take the
// change within seconds, without a restart. Without --file, `add` only prints the entry to paste.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, newInternalSecret, parseInternalClients, sha256Hex, type InternalClient } from '@vrs/kit';

const usage = [
  'usage: npm run internal-clients:add -- --name <name> --allow <pattern> [--allow <pattern> ...] [--read-only] [--file <path>]',
  '       npm run internal-clients:revoke -- --name <name> [--file <path>]',
  'A pattern is *, <service>.*, <service>.<router>.* or <service>.<router>.<procedure> (e.g. research.*, billing.status.get).',
  '--file defaults to INTERNAL_CLIENTS_FILE.',
].join('\n');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    allow: { type: 'string', multiple: true, default: [] },
    'read-only': { type: 'boolean', default: false },
    file: { type: 'string' },
  },
});
const command = positionals[0];
const file = values.file ?? process.env.INTERNAL_CLIENTS_FILE;
if (
  !values.name ||
  (command !== 'add' && command !== 'revoke') ||
  (command === 'add' && values.allow.length === 0) ||
  (command === 'revoke' && !file)
) {
  console.error(usage);
  process.exit(64);
}

function readClients(path: string): InternalClient[] {
  return existsSync(path) ? parseInternalClients(readFileSync(path, 'utf8'), path) : [];
}

/** Written aside and renamed, so a service reading the file never sees half of it. */
function writeClients(path: string, clients: InternalClient[]): void {
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, `${JSON.stringify(clients, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, path);
}

try {
  if (command === 'add') {
    const secret = newInternalSecret();
    const entry: InternalClient = { name: values.name, sha256: sha256Hex(secret), allow: values.allow, readOnly: values['read-only'] };
    const clients = [...(file ? readClients(file) : []), entry];
    // Checks the new entry and that its name is not taken, before anything is written.
    parseInternalClients(JSON.stringify(clients), file ?? 'the new entry');
    if (file) writeClients(file, clients);
    console.log(`client: ${entry.name}`);
    console.log(`secret: ${secret}`);
    console.log('(shown once: give it to the client, who sends it as X-Internal-Token; only its SHA-256 is stored)');
    console.log(file ? `added to ${file}` : `entry for INTERNAL_CLIENTS / INTERNAL_CLIENTS_FILE:\n${JSON.stringify(entry)}`);
  } else if (file) {
    const clients = readClients(file);
    const kept = clients.filter((client) => client.name !== values.name);
    if (kept.length === clients.length) {
      console.error(`no client named ${values.name} in ${file}`);
      process.exit(1);
    }
    writeClients(file, kept);
    console.log(`revoked ${values.name} in ${file}: the services refuse its secret within seconds`);
  }
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(65);
}
