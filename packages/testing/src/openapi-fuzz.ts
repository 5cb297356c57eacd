import fc from 'fast-check';

/** The parts of an OpenAPI 3.1 document the fuzzer reads. */
interface Schema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

export interface FuzzOperation {
  operationId: string;
  method: string;
  /** The templated path, e.g. `/projects/{projectId}/search` (the server URL adds `/v1`). */
  path: string;
  pathParams: string[];
  query: Parameter[];
  bodySchema?: Schema;
}

export interface FuzzRequest {
  operationId: string;
  method: string;
  /** The path and query to request, under `/v1`. */
  target: string;
  body?: string;
  contentType?: string;
}

const httpMethods = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** Every operation of the document, with what the fuzzer varies. */
export function operationsOf(document: OpenApiDocument): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!httpMethods.has(method)) continue;
      const parameters = operation.parameters ?? [];
      operations.push({
        operationId: operation.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query'),
        bodySchema: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

/** Values real clients and attackers send: plausible ids, edge-case text, broken escapes, huge strings. */
const nastyText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    'null',
    'true',
    '[]',
    '{}',
    '%',
    '%zz',
    '%C0%AF',
    '%FF%FE',
    '..',
    '../..',
    '<script>',
    "'; drop",
    '\u0000',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('x'.repeat(300), '9'.repeat(40), 'é'.repeat(200)),
);
const plausibleId = fc.constantFrom(
  'vrsFixture1',
  'rCAS2eD-mcw',
  '@EEVblog',
  'UC2DjFE7Xf11URZqWBigcVOQ',
  '0198c3a4-5f1e-7abc-8def-0123456789ab',
  'job_0',
  'exp_0',
);

function valueFor(schema: Schema | undefined): fc.Arbitrary<string> {
  const typed: fc.Arbitrary<string>[] = [nastyText];
  if (schema?.enum) typed.push(fc.constantFrom(...schema.enum.map(String)));
  const types = [schema?.type].flat();
  if (types.includes('integer') || types.includes('number'))
    typed.push(fc.integer({ min: (schema?.minimum ?? 0) - 5, max: (schema?.maximum ?? 100) + 5 }).map(String));
  if (types.includes('boolean')) typed.push(fc.constantFrom('true', 'false'));
  if (types.includes('string')) typed.push(fc.constantFrom('espresso', 'cold brew', 'en', 'youtube'));
  return fc.oneof(...typed);
}

/** A JSON value, sometimes shaped like the body the schema asks for (so validation goes deeper). */
function bodyFor(schema: Schema | undefined): fc.Arbitrary<string> {
  const shaped =
    schema?.properties !== undefined
      ? fc
          .record(
            Object.fromEntries(
              Object.keys(schema.properties).map((key) => [
                key,
                fc.oneof(fc.jsonValue({ maxDepth: 2 }), valueFor(schema.properties![key])),
              ]),
            ),
            {
              requiredKeys: [],
            },
          )
          .map((value) => JSON.stringify(value))
      : fc.constant('{}');
  return fc.oneof(
    shaped,
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
    fc.constantFrom('', '{', '{"a":', 'null', '[]', '"text"', `${'['.repeat(5_000)}${']'.repeat(5_000)}`, '{"__proto__":{"x":1}}'),
    fc.string({ maxLength: 60 }),
  );
}

/** Requests for one operation: its path parameters, some of its query parameters (and unknown ones), a body. */
export function requestsFor(operation: FuzzOperation): fc.Arbitrary<FuzzRequest> {
  const pathValues = fc.tuple(...operation.pathParams.map(() => fc.oneof(plausibleId, nastyText)));
  const queryEntries = fc.tuple(
    ...operation.query.map((parameter) =>
      fc.option(
        valueFor(parameter.schema).map((value) => [parameter.name, value] as const),
        { nil: undefined },
      ),
    ),
  );
  const unknownParameter = fc.option(fc.tuple(fc.constantFrom('limit', 'foo', 'q[]', '__proto__', 'x'.repeat(50)), nastyText), {
    nil: undefined,
  });
  const body =
    operation.method === 'GET' || operation.method === 'DELETE'
      ? fc.constant(undefined)
      : fc.option(bodyFor(operation.bodySchema), { nil: undefined });
  const contentType = fc.constantFrom(
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/json; charset=latin1',
  );
  return fc
    .record({ pathValues, queryEntries, unknownParameter, body, contentType })
    .map(({ pathValues, queryEntries, unknownParameter, body, contentType }) => {
      let path = operation.path;
      operation.pathParams.forEach((name, index) => {
        // Raw when it is already an escape test, encoded otherwise: both reach the server.
        const value = pathValues[index]!;
        path = path.replace(`{${name}}`, value.includes('%') ? value : encodeURIComponent(value));
      });
      const query = new URLSearchParams();
      for (const entry of [...queryEntries, unknownParameter]) if (entry) query.append(entry[0], entry[1]);
      const search = query.size > 0 ? `?${query}` : '';
      return {
        operationId: operation.operationId,
        method: operation.method,
        target: `${path}${search}`,
        ...(body === undefined ? {} : { body, contentType }),
      };
    });
}

export interface FuzzOutcome {
  status: number;
  /** What is wrong with the answer, if anything (a 5xx other than an honest 503, a non-envelope error). */
  problem?: string;
  durationMs: number;
}

/** 503 is an honest answer only for a dependency that is really down (the fake YouTube refusing, no model). */
const honest503Codes = new Set(['UPSTREAM_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'AI_UNAVAILABLE']);

/** Sends one fuzzed request to `baseUrl` (the server root) and judges the answer. */
export async function sendFuzzRequest(baseUrl: string, request: FuzzRequest, headers: Record<string, string>): Promise<FuzzOutcome> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/v1${request.target}`, {
    method: request.method,
    headers: { ...headers, ...(request.contentType ? { 'content-type': request.contentType } : {}) },
    body: request.body,
  });
  const text = await response.text();
  const durationMs = performance.now() - started;
  const status = response.status;
  if (status < 400) return { status, durationMs };
  let error: { code?: string; requestId?: string } | undefined;
  try {
    error = (JSON.parse(text) as { error?: typeof error }).error;
  } catch {
    return { status, durationMs, problem: `${status} without a JSON body: ${text.slice(0, 120)}` };
  }
  if (!error?.code || !error.requestId)
    return { status, durationMs, problem: `${status} body is not the error envelope: ${text.slice(0, 120)}` };
  if (status >= 500 && !(status === 503 && honest503Codes.has(error.code)))
    return { status, durationMs, problem: `${status} ${error.code}` };
  return { status, durationMs };
}
