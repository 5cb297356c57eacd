import { startFakeLlm } from './server';

// Standalone fake LLM, so `npm start` can answer with a model offline when LLM_BASE_URL points here.
const fake = await startFakeLlm({
  port: Number(process.env.LLM_UPSTREAM_PORT ?? 8091),
  host: process.env.LLM_UPSTREAM_HOST ?? '127.0.0.1',
  latencyMs: Number(process.env.LLM_UPSTREAM_LATENCY_MS ?? 0),
});

console.log(`fake LLM upstream listening on ${fake.url}`);
console.log(`use it with LLM_BASE_URL=${fake.baseUrl} LLM_PRIMARY_MODEL=fake-primary LLM_FALLBACK_MODEL=fake-fallback`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
