// Republishes the events whose handlers gave up on them (the dead letters, ADR 0030) once the cause is fixed:
// `npm run events:replay-dead-letters -- [--consumer <name>] [--limit <n>]`. Each event keeps its original id
// and goes to every consumer of its kind again; each replayed dead letter is removed.
import { parseArgs } from 'node:util';
import { createJetStreamBus, isNatsReachable } from '@vrs/bus';
import { baseEnvSchema, loadConfig } from '@vrs/kit';

const { values } = parseArgs({ options: { consumer: { type: 'string' }, limit: { type: 'string' } } });
const limit = values.limit === undefined ? undefined : Number(values.limit);
if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
  console.error(`--limit must be a positive integer, not ${JSON.stringify(values.limit)}`);
  process.exit(1);
}

const config = loadConfig(baseEnvSchema);
if (!(await isNatsReachable(config.NATS_URL))) {
  console.error(`NATS is not reachable at ${config.NATS_URL}: dead letters live in JetStream (set NATS_URL / NATS_NAMESPACE).`);
  process.exit(1);
}
const bus = await createJetStreamBus({
  natsUrl: config.NATS_URL,
  namespace: config.NATS_NAMESPACE,
  name: 'replay-dead-letters',
  replicas: config.NATS_STREAM_REPLICAS,
});
try {
  const { replayed } = await bus.replayDeadLetters({ consumer: values.consumer, limit });
  for (const letter of replayed) {
    console.log(
      `${letter.envelope.type} ${letter.envelope.id} → ${letter.consumer} (had failed ${letter.attempts} times: ${letter.error})`,
    );
  }
  const left = (await bus.deadLetters({ consumer: values.consumer })).length;
  console.log(`${replayed.length} dead letters replayed in namespace ${config.NATS_NAMESPACE}; ${left} left.`);
} finally {
  await bus.close();
}
