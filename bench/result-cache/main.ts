// bench/result-cache: research's result cache (ADR 0067, W-TinyLFU) beside the least-recently-used
// cache it replaced (ADR 0063), fed the same streams of askings in one run: answers from the cache,
// pages kept for long (what the old generation collects) and the cache's own time per asking. Pages
// are a 20-hit page's size (`pageBytes`) under the default 8 MiB budget. Not a test: it prints
// figures. Env: BENCH_ASKINGS (100000 per stream).
import { LRUCache } from 'lru-cache';
import { required } from '@vrs/kit';
import { createResultCache } from '@vrs/search';

const askings = Number(process.env.BENCH_ASKINGS ?? 100_000);
const budget = 8 * 1024 * 1024;
const pageBytes = 22_800;

interface Policy {
  ask(query: string): boolean;
  /** Pages kept for long: every page the least-recently-used cache keeps, the main part's here. */
  keptForLong(): number;
}

/** The cache before ADR 0067: least recently used out, a page kept from its query's second asking (4,096 fingerprints). */
function leastRecentlyUsed(): Policy {
  const pages = new LRUCache<string, object>({ maxSize: budget, sizeCalculation: () => pageBytes });
  const fingerprints = new Uint32Array(4096);
  let kept = 0;
  const askedBefore = (key: string) => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    const slot = (hash >>> 0) & 4095;
    const fingerprint = (hash | 1) >>> 0;
    if (fingerprints[slot] === fingerprint) return true;
    fingerprints[slot] = fingerprint;
    return false;
  };
  return {
    ask(query) {
      if (pages.get(query)) return true;
      if (askedBefore(query)) {
        pages.set(query, { query });
        kept++;
      }
      return false;
    },
    keptForLong: () => kept,
  };
}

function windowTinyLfu(): Policy {
  let kept = 0;
  const pages = createResultCache<object>({
    maxBytes: budget,
    sizeOf: () => pageBytes,
    onKeep: (part) => {
      if (part === 'main') kept++;
    },
  });
  return {
    ask(query) {
      if (pages.get(query)) return true;
      pages.offer(query, { query });
      return false;
    },
    keptForLong: () => kept,
  };
}

/** A deterministic generator (Park–Miller), so both caches see the same stream in every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48_271) % 2_147_483_647;
    return state / 2_147_483_647;
  };
}

/** Queries of a population: query i asked with weight 1 / (i + 1)^exponent. */
function zipf(queries: number, exponent: number, length: number, seed: number): string[] {
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < queries; i++) {
    total += 1 / (i + 1) ** exponent;
    cumulative.push(total);
  }
  const next = random(seed);
  return Array.from({ length }, () => {
    const target = next() * total;
    let low = 0;
    let high = queries - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (required(cumulative[middle], 'a cumulative weight between low and high') < target) low = middle + 1;
      else high = middle;
    }
    return `popular ${low}`;
  });
}

/** A dashboard refreshing its saved searches in turn. */
const cycle = (searches: number, length: number) => Array.from({ length }, (_, i) => `saved search ${i % searches}`);

/** Researchers one after another, each asking five queries three times in turn (paging back and forth). */
function sessions(length: number): string[] {
  const out: string[] = [];
  for (let researcher = 0; out.length < length; researcher++)
    for (let round = 0; round < 3; round++) for (let q = 0; q < 5; q++) out.push(`researcher ${researcher} query ${q}`);
  return out.slice(0, length);
}

const interleave = (a: string[], b: string[]) =>
  a.flatMap((query, i) => [query, required(b[i], 'an asking of the second stream, as long as the first')]);

const half = Math.floor(askings / 2);
const streams: [string, string[]][] = [
  ['a cycle of 1,500 saved searches', cycle(1_500, askings)],
  ['a cycle of 1,000 saved searches', cycle(1_000, askings)],
  ['50,000 queries, Zipf 0.8', zipf(50_000, 0.8, askings, 1)],
  ['50,000 queries, Zipf 1.0', zipf(50_000, 1.0, askings, 2)],
  ['researchers asking 5 queries 3 times each', sessions(askings)],
  ['Zipf 0.8 and researchers, interleaved', interleave(zipf(50_000, 0.8, half, 3), sessions(half))],
  ['Zipf 0.8 and the 1,500-search cycle, interleaved', interleave(zipf(50_000, 0.8, half, 4), cycle(1_500, half))],
];

function run(make: () => Policy, stream: string[]) {
  const policy = make();
  let answered = 0;
  const started = process.hrtime.bigint();
  for (const query of stream) if (policy.ask(query)) answered++;
  const nanos = Number(process.hrtime.bigint() - started);
  return {
    answered: answered / stream.length,
    keptPerThousand: (1000 * policy.keptForLong()) / stream.length,
    nanosPerAsking: nanos / stream.length,
  };
}

console.log(`\nbench/result-cache — ${askings} askings per stream, ${pageBytes}-byte pages, ${budget / 1024 / 1024} MiB\n`);
console.log(
  '| stream | answered from cache: W-TinyLFU | least recently used | pages kept for long per 1,000 askings: W-TinyLFU | least recently used | ns per asking: W-TinyLFU | least recently used |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const [i, [name, stream]] of streams.entries()) {
  // Each stream's first run alternates between the two, so neither always runs on a warmer JIT.
  const tinyLfuFirst = i % 2 === 1 ? run(windowTinyLfu, stream) : undefined;
  const before = run(leastRecentlyUsed, stream);
  const after = tinyLfuFirst ?? run(windowTinyLfu, stream);
  const percent = (share: number) => `${(100 * share).toFixed(1)} %`;
  console.log(
    `| ${name} | ${percent(after.answered)} | ${percent(before.answered)} | ${after.keptPerThousand.toFixed(0)} | ${before.keptPerThousand.toFixed(0)} | ${after.nanosPerAsking.toFixed(0)} | ${before.nanosPerAsking.toFixed(0)} |`,
  );
}
