import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { operationsOf, requestsFor, sendFuzzRequest, type OpenApiDocument } from '@vrs/testing/openapi-fuzz';

const gatewayUrl = inject('gatewayUrl');
/** Fixed, so a failure replays exactly (FUZZ_SEED overrides it to explore). */
const seed = Number(process.env.FUZZ_SEED ?? 20261124);
const runsPerOperation = 6;

/**
 * Property-based requests to every operation the served OpenAPI document lists — plausible and hostile
 * path parameters, known and unknown query parameters, JSON bodies shaped and unshaped, odd content
 * types: whatever is sent, the answer is never a 5xx other than an honest 503 and every error is the
 * envelope with a requestId. `npm run bench:fuzz` sends thousands more.
 */
describe('the API under fuzzed requests (issue 12)', async () => {
  const document = (await (await fetch(`${gatewayUrl}/v1/openapi.json`)).json()) as OpenApiDocument;
  const operations = operationsOf(document);

  it('lists every operation of the document', () => {
    expect(operations.length).toBeGreaterThan(20);
  });

  it.each(operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))('%s', async (_name, operation) => {
    const headers = { 'x-demo-user': `fuzz-${operation.operationId}` };
    await fc.assert(
      fc.asyncProperty(requestsFor(operation), async (request) => {
        const outcome = await sendFuzzRequest(gatewayUrl, request, headers);
        expect(outcome.problem, `${request.method} /v1${request.target} ${request.body?.slice(0, 200) ?? ''}`).toBeUndefined();
      }),
      { seed, numRuns: runsPerOperation, endOnFailure: true },
    );
  });
});
