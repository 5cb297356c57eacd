import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { callTRPCProcedure, getTRPCErrorFromUnknown, TRPCError, type AnyRouter, type ProcedureType } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { definitionOf, isSharedJson, proceduresOf, type AppError } from '@vrs/kit';
import type { GatewayContext } from '../context';
import type { GatewayMeta } from '../trpc';
import { sendError } from '../errors/envelope';

/** One operation of the router, as the REST face finds and calls it. */
interface Operation {
  pattern: RegExp;
  path: string;
  type: ProcedureType;
  /** No input at all (a void schema): nothing is read from the query or body. */
  takesNoInput: boolean;
  /** Input fields that are arrays: one query value of theirs becomes a one-element array. */
  arrayFields: string[];
}

export interface RestHandlerOptions {
  router: AnyRouter;
  createContext: (req: Request, res: Response) => GatewayContext;
  /** The envelope's error for a failed call (and where it is logged); `input` is what was read, if anything. */
  toAppError: (error: TRPCError, req: Request, input: unknown, procedurePath: string) => AppError;
  /** Status and headers of the response, from the procedure called and what the call left in its context. */
  responseMeta: (
    ctx: GatewayContext | undefined,
    failed: boolean,
    procedurePath: string,
  ) => { status?: number; headers?: Record<string, string> };
}

const isArrayField = (field: z.ZodType) =>
  field instanceof z.ZodArray || (field instanceof z.ZodOptional && field.unwrap() instanceof z.ZodArray);

function operationsOf(router: AnyRouter): Map<string, Operation[]> {
  const byMethod = new Map<string, Operation[]>();
  for (const [path, procedure] of Object.entries(proceduresOf(router))) {
    const { type, meta, inputs } = definitionOf(procedure);
    const openapi = (meta as OpenApiMeta<GatewayMeta> | undefined)?.openapi;
    if (!openapi || type === 'subscription') continue;
    const input = inputs.length === 1 ? inputs[0] : undefined;
    const shape: Record<string, z.ZodType> = input instanceof z.ZodObject ? input.shape : {};
    const source = `/${openapi.path.replace(/^\/|\/$/g, '')}`.replace(/\{(.+?)\}/g, (_, key: string) => `(?<${key}>[^/]+)`);
    const operations = byMethod.get(openapi.method) ?? [];
    operations.push({
      pattern: new RegExp(`^${source}$`, 'i'),
      path,
      type,
      takesNoInput: input instanceof z.ZodVoid || input instanceof z.ZodUndefined || input instanceof z.ZodNever,
      arrayFields: Object.entries(shape)
        .filter(([, field]) => isArrayField(field))
        .map(([name]) => name),
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

/** An answer's JSON, as the bytes written. */
function jsonBody(data: unknown): Buffer | undefined {
  const text = JSON.stringify(data);
  // Encoded once here: given a string, Node would encode it twice, for Content-Length and to write it (ADR 0045).
  return text === undefined ? undefined : Buffer.from(text);
}

/** The answer a service shared (`shareJson`) that each response is written from, noted by its procedure. */
const sharedAnswerOf = new WeakMap<ServerResponse, object>();
/** The bytes each shared answer's output parses to, kept as long as the answer (ADR 0058). */
const sharedBodies = new WeakMap<object, Buffer>();

/**
 * For a procedure that answers what a service shared (research's cached search pages): the REST face
 * writes its JSON once per answer, not per request. The output schema still parses every response; the
 * same frozen answer always parses to the same JSON.
 */
export function answerShared<T>(ctx: GatewayContext, answer: T): T {
  if (isSharedJson(answer)) sharedAnswerOf.set(ctx.res, answer);
  return answer;
}

function bodyOf(res: ServerResponse, data: unknown): Buffer | undefined {
  const shared = sharedAnswerOf.get(res);
  if (!shared) return jsonBody(data);
  let body = sharedBodies.get(shared);
  if (!body) {
    body = jsonBody(data);
    if (body) sharedBodies.set(shared, body);
  }
  return body;
}

/**
 * The REST face of the v1 router: finds the operation for the method and path, reads its input (the
 * query, or the JSON body express.json read, plus the path's parameters), runs the procedure once
 * through tRPC's own pipeline (middlewares, input parsing, resolver) and writes its JSON or the error
 * envelope. Query values are strings: the schemas coerce the fields that are not (`z.coerce`).
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
    try {
      const takesBody = req.method !== 'GET' && req.method !== 'DELETE';
      const contentType = req.headers['content-type'];
      if (takesBody && !contentType?.startsWith('application/json')) throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE' });
      if (!operation.takesNoInput) {
        input = { ...(takesBody ? (req.body as Record<string, unknown> | undefined) : queryInput(req, operation.arrayFields)), ...params };
      }
      ctx = options.createContext(req, res);
      const data = await callTRPCProcedure({
        router: options.router,
        path: operation.path,
        getRawInput: async () => input,
        ctx,
        type: operation.type,
        signal: undefined,
        batchIndex: 0,
      });
      const body = bodyOf(res, data);
      const meta = options.responseMeta(ctx, false, operation.path);
      res.statusCode = meta.status ?? 200;
      res.setHeader('Content-Type', 'application/json');
      if (meta.headers) for (const [name, value] of Object.entries(meta.headers)) res.setHeader(name, value);
      res.end(body);
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      const appError = options.toAppError(error, req, input, operation.path);
      sendError(res, appError, req.requestId, options.responseMeta(ctx, true, operation.path).headers);
    }
  };
}
