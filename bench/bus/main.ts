// bench/bus: CPU time of one event published to JetStream, three ways in alternating rounds in this
// process: through the bus (`createJetStreamBus`: envelope with its payload checked, JSON, a
// de-duplication id, the stream's acknowledgement), and the same envelope published through nats.js
// directly, once on a connection with nats.js's default options and once with `noAsyncTraces`, as
// the bus connects (ADR 0072): by default nats.js builds an Error, with its stack, for every request
// a publish makes. Not a test: it prints figures. Needs the nats-server of NATS_URL.
// Env: NATS_URL (nats://127.0.0.1:4222), BENCH_EVENTS (4000 a round), BENCH_ROUNDS (3), BENCH_IN_FLIGHT (20).
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createJetStreamBus, deleteNamespace } from '@vrs/bus';
import { providerVideoFetched } from '@vrs/contracts';
import { required } from '@vrs/kit';

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const events = Number(process.env.BENCH_EVENTS ?? 4_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 20);
const namespace = `benchbus${process.pid}`;

const data = {
  provider: 'youtube' as const,
  versionId: 'ver_0123456789abcdef',
  fetchedAt: new Date(0).toISOString(),
  videoId: 'dQw4w9WgXcQ',
};

/** CPU µs of this process per publish, `inFlight` publishes awaited together. */
async function cpuPerPublish(publish: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  for (let sent = 0; sent < events; sent += inFlight) await Promise.all(Array.from({ length: inFlight }, publish));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / events;
}

async function directPublisher(noAsyncTraces: boolean) {
  const nc = await connect({ servers: natsUrl, name: `bench-bus nats.js noAsyncTraces=${noAsyncTraces}`, noAsyncTraces });
  const js = jetstream(nc);
  const subject = `${namespace}.${providerVideoFetched.type}`;
  const publish = () => {
    const envelope = { id: randomUUID(), type: providerVideoFetched.type, occurredAt: new Date().toISOString(), data };
    return js.publish(subject, JSON.stringify(envelope), { msgID: envelope.id });
  };
  return { publish, close: () => nc.close() };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

async function main() {
  const bus = await createJetStreamBus({ natsUrl, namespace, name: 'bench-bus' });
  await bus.ensureStreams([providerVideoFetched.service]);
  const withTraces = await directPublisher(false);
  const withoutTraces = await directPublisher(true);
  const viaBus = () => bus.publish(providerVideoFetched, data);
  try {
    // Warm-up: connections, stream, JIT.
    for (const publish of [viaBus, withTraces.publish, withoutTraces.publish]) await cpuPerPublish(publish);
    const figures = { bus: [] as number[], traces: [] as number[], noTraces: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      figures.traces.push(await cpuPerPublish(withTraces.publish));
      figures.noTraces.push(await cpuPerPublish(withoutTraces.publish));
      figures.bus.push(await cpuPerPublish(viaBus));
    }
    console.log(`\nbench/bus — ${events} events a round, ${inFlight} in flight, ${rounds} alternating rounds, ${natsUrl}`);
    console.log('CPU µs of this process per publish:');
    console.log(
      '| round | nats.js, default options | nats.js, noAsyncTraces | the bus (noAsyncTraces) | noAsyncTraces / default | bus / default |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|');
    for (const [round, traces] of figures.traces.entries()) {
      const noTraces = required(figures.noTraces[round], `round ${round + 1}'s figure with noAsyncTraces`);
      const viaTheBus = required(figures.bus[round], `round ${round + 1}'s figure through the bus`);
      console.log(
        `| ${round + 1} | ${traces.toFixed(1)} | ${noTraces.toFixed(1)} | ${viaTheBus.toFixed(1)} | ${(noTraces / traces).toFixed(2)} | ${(viaTheBus / traces).toFixed(2)} |`,
      );
    }
    console.log(
      `all rounds: noAsyncTraces / default ${(sum(figures.noTraces) / sum(figures.traces)).toFixed(2)}; the bus / nats.js with its defaults ${(sum(figures.bus) / sum(figures.traces)).toFixed(2)}`,
    );
  } finally {
    await withTraces.close();
    await withoutTraces.close();
    await bus.close();
    await deleteNamespace(natsUrl, namespace);
  }
}

await main();
