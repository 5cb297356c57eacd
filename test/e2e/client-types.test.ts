import { readFile } from 'node:fs/promises';
import { describe, expect, inject, it } from 'vitest';
import { generatedTypesPath, typesFromDocument } from '@vrs/client/generate';

describe('packages/client: the checked-in types are those of the served OpenAPI document', () => {
  it('regenerates the types from GET /v1/openapi.json and finds them identical (else: npm run client:generate)', async () => {
    const response = await fetch(`${inject('gatewayUrl')}/v1/openapi.json`);
    expect(response.status).toBe(200);
    const served = await typesFromDocument(await response.json());
    const checkedIn = await readFile(generatedTypesPath, 'utf8');
    // A plain equality would print two 9,000-line strings; the first differing line says what drifted.
    const servedLines = served.split('\n');
    const checkedInLines = checkedIn.split('\n');
    const differing = servedLines.findIndex((line, n) => line !== checkedInLines[n]);
    const at =
      differing === -1 && servedLines.length !== checkedInLines.length ? Math.min(servedLines.length, checkedInLines.length) : differing;
    expect(
      at === -1
        ? 'identical'
        : `line ${at + 1}: served ${JSON.stringify(servedLines[at])}, checked in ${JSON.stringify(checkedInLines[at])}`,
    ).toBe('identical');
  });
});
