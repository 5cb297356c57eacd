// bench/json-body: what the gateway's exact-input check (ADR 0087: UTF-8, nesting, duplicate keys)
// costs on a 1 MB evidence batch, beside what body-parser already spends on the same body in the
// same run (decoding it and JSON.parse). Not a test: it prints figures.
// Run: npx tsx bench/json-body/main.ts   Env: BENCH_ROUNDS (200).
import { checkJsonBody } from '../../gateway/src/edge/json-body';

const rounds = Number(process.env.BENCH_ROUNDS ?? 200);
const sentence = 'A line of a video transcript, with "quotes", commas, café ☕ and a \\n line break. ';
/** 100 items (the most one request adds), texts of about 10 KB: a full 1 MB batch. */
const items = Array.from({ length: 100 }, (_, i) => ({
  text: sentence.repeat(Math.ceil(10_000 / sentence.length)).slice(0, 10_000),
  sourceKey: `video:abc${i}:t${i * 1000}`,
  entityId: `abc${i}`,
  startMs: i * 1000,
}));
const batch = Buffer.from(JSON.stringify({ items }));
/** The worst shape for the check: 1 MB of short keys, about 100,000 of them in one object. */
const keys = Buffer.from(JSON.stringify(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]))));

function medianMs(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;
}

for (const [name, body] of [
  ['evidence batch (100 items of 10 KB)', batch],
  ['one object of 100,000 short keys', keys],
] as const) {
  // Warm both paths before measuring.
  for (let i = 0; i < 20; i++) {
    checkJsonBody(body);
    JSON.parse(body.toString('utf8'));
  }
  const parse = medianMs(() => JSON.parse(body.toString('utf8')));
  const check = medianMs(() => checkJsonBody(body));
  console.log(`${name}: ${(body.length / 1_048_576).toFixed(2)} MiB, median of ${rounds}`);
  console.log(`  decode + JSON.parse (body-parser's part): ${parse.toFixed(2)} ms`);
  console.log(
    `  checkJsonBody (UTF-8, depth, duplicate keys): ${check.toFixed(2)} ms (${((check / parse) * 100).toFixed(0)}% of the parse)`,
  );
}
