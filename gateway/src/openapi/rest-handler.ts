import type { NextFunction, Request, Response } from 'express';
import { getTRPCErrorFromUnknown, type AnyProcedure, type AnyRouter } from '@trpc/server/unstable-core-do-not-import';
import { TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { isSharedJson, middlewaresWithoutOutputParse, runProcedure, type AppError, type ProcedureMiddleware } from '@vrs/kit';
import type { GatewayContext } from '../context';
import type { GatewayMeta } from '../trpc';
import { sendError } from '../errors/envelope';

type ZodLike = { _zod?: { def: Record<string, unknown> & { type?: string } } } & Record<string, unknown>;

/** One operation of the router, as the REST face finds and calls it. */
interface Operation {
  method: string;
  pattern: RegExp;
  path: string;
  procedure: AnyProcedure;
  /** What runs the call: the procedure's own middlewares, less the output parse where the meta says a service shapes the answer. */
  middlewares: ProcedureMiddleware[] | undefined;
  /** No input at all (a void schema): nothing is read from the query or body. */
  takesNoInput: boolean;
  /** Input fields that are arrays: one query value of theirs becomes a one-element array. */
  arrayFields: string[];
  /** Query strings are strings: number, boolean and date fields are coerced, as the document promises. */
  coerce: () => void;
}

export interface RestHandlerOptions {
  router: AnyRouter;
  createContext: (req: Request, res: Response) => GatewayContext;
  /** The envelope's error for a failed call (and where it is logged); `input` is what was read, if anything. */
  toAppError: (error: TRPCError, req: Request, input: unknown, procedurePath: string) => AppError;
  /** Status and headers of the response, from what the call left in its context. */
  responseMeta: (ctx: GatewayContext | undefined, failed: boolean) => { status?: number; headers?: Record<string, string> };
}

const kind = (schema: unknown) => (schema as ZodLike | undefined)?._zod?.def.type;

/** The schema under optional, nullable, default, lazy and pipes: what decides how a field is read. */
function unwrap(schema: ZodLike): ZodLike {
  const def = schema._zod?.def;
  switch (def?.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return unwrap(def.innerType as ZodLike);
    case 'lazy':
      return unwrap((def.getter as () => ZodLike)());
    case 'pipe':
      return unwrap((kind(def.out) === 'transform' ? def.in : def.out) as ZodLike);
    default:
      return schema;
  }
}

/** Marks the object's number, boolean, bigint and date fields (at any depth, in arrays too) as coerced. */
function coerceFields(object: ZodLike): void {
  for (const field of Object.values((object._zod!.def.shape ?? {}) as Record<string, ZodLike>)) {
    let leaf = unwrap(field);
    while (kind(leaf) === 'array') leaf = unwrap(leaf._zod!.def.element as ZodLike);
    const type = kind(leaf);
    if (type === 'number' || type === 'boolean' || type === 'bigint' || type === 'date') leaf._zod!.def.coerce = true;
    else if (type === 'object') coerceFields(leaf);
  }
}

function operationsOf(router: AnyRouter): Map<string, Operation[]> {
  const byMethod = new Map<string, Operation[]>();
  for (const [path, procedure] of Object.entries(router._def.procedures as Record<string, AnyProcedure>)) {
    const meta = procedure._def.meta as OpenApiMeta<GatewayMeta> | undefined;
    const openapi = meta?.openapi;
    if (!openapi || procedure._def.type === 'subscription') continue;
    const inputs = (procedure._def as unknown as { inputs: ZodLike[] }).inputs;
    const input = inputs.length === 1 ? unwrap(inputs[0]!) : undefined;
    const shape = (kind(input) === 'object' ? input!._zod!.def.shape : {}) as Record<string, ZodLike>;
    const source = `/${openapi.path.replace(/^\/|\/$/g, '')}`.replace(/\{(.+?)\}/g, (_, key: string) => `(?<${key}>[^/]+)`);
    let coerced = false;
    const operations = byMethod.get(openapi.method) ?? [];
    operations.push({
      method: openapi.method,
      pattern: new RegExp(`^${source}$`, 'i'),
      path,
      procedure,
      middlewares: meta?.outputShapedBy ? middlewaresWithoutOutputParse(procedure) : undefined,
      takesNoInput: ['void', 'undefined', 'never'].includes(kind(input) ?? ''),
      arrayFields: Object.entries(shape)
        .filter(([, field]) => kind(field) === 'array' || (kind(field) === 'optional' && kind(field._zod!.def.innerType) === 'array'))
        .map(([name]) => name),
      // On first use, as the document generator reads the schemas untouched.
      coerce: () => {
        if (coerced) return;
        coerced = true;
        if (kind(input) === 'object') coerceFields(input!);
      },
    });
    byMethod.set(openapi.method, operations);
  }
  return byMethod;
}

/** Query values as the operations read them: one value as itself, repeated ones as a list, empty ones absent. */
function queryInput(req: Request, arrayFields: string[]): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
    if (!value) continue;
    input[name] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  for (const name of arrayFields) if (input[name] !== undefined && !Array.isArray(input[name])) input[name] = [input[name]];
  return input;
}

/** The JSON of each shared answer (`shareJson`), written once: the same object always holds the same JSON. */
const sharedBodies = new WeakMap<object, Buffer>();

/** An answer's JSON, as the bytes written. */
function jsonBody(data: unknown): Buffer | undefined {
  if (isSharedJson(data)) {
    let body = sharedBodies.get(data);
    if (!body) {
      body = Buffer.from(JSON.stringify(data));
      sharedBodies.set(data, body);
    }
    return body;
  }
  const text = JSON.stringify(data);
  // Encoded once here: given a string, Node measures its UTF-8 length for Content-Length and then
  // encodes it again to write it, ≈ 5 ms for a 550 KB page of comments against ≈ 1 ms (ADR 0045).
  return text === undefined ? undefined : Buffer.from(text);
}

/**
 * The REST face of the v1 router: finds the operation for the method and path, reads its input (the
 * query, or the JSON body express.json read, plus the path's parameters), runs the procedure once
 * through tRPC's own pipeline (middlewares, input parsing, resolver) and writes its JSON or the error
 * envelope. It serves what trpc-to-openapi's runtime adapter served, which also built a Fetch
 * Request per call for an abort signal nothing read and a caller proxy per call; trpc-to-openapi
 * still writes the OpenAPI document from the same procedures.
 */
export function createRestHandler(options: RestHandlerOptions) {
  const operations = operationsOf(options.router);

  function find(method: string, path: string): { operation: Operation; params: Record<string, string> } | undefined {
    for (const operation of operations.get(method) ?? []) {
      const match = operation.pattern.exec(path);
      if (match) return { operation, params: { ...match.groups } };
    }
    return undefined;
  }

  return async (req: Request, res: Response, next: NextFunction) => {
    const path = `/${req.path.replace(/^\/|\/$/g, '')}`;
    const found = find(req.method, path);
    if (!found) return next();
    const { operation, params } = found;
    let input: unknown;
    let ctx: GatewayContext | undefined;
    const send = (status: number, headers: Record<string, string> | undefined, body: Buffer | undefined) => {
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json');
      if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.end(body);
    };
    try {
      const takesBody = req.method !== 'GET' && req.method !== 'DELETE';
      const contentType = req.headers['content-type'];
      if (takesBody && !contentType?.startsWith('application/json')) throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE' });
      operation.coerce();
      if (!operation.takesNoInput) {
        input = { ...(takesBody ? (req.body as Record<string, unknown> | undefined) : queryInput(req, operation.arrayFields)), ...params };
      }
      ctx = options.createContext(req, res);
      const data = await runProcedure(
        operation.procedure,
        {
          path: operation.path,
          getRawInput: async () => input,
          ctx,
          type: operation.procedure._def.type,
          signal: undefined,
          batchIndex: 0,
        },
        operation.middlewares,
      );
      const meta = options.responseMeta(ctx, false);
      send(meta.status ?? 200, meta.headers, jsonBody(data));
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      const appError = options.toAppError(error, req, input, operation.path);
      sendError(res, appError, req.requestId, options.responseMeta(ctx, true).headers);
    }
  };
}
