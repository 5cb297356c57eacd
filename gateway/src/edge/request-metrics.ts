import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { observePublicRequest } from '@vrs/kit';

/** The operation each response answers, noted by the procedure's edge middleware (`noteOperation`). */
const operationOf = new WeakMap<ServerResponse, string>();

export function noteOperation(res: ServerResponse, operationId: string | undefined): void {
  if (operationId) operationOf.set(res, operationId);
}

/**
 * Times every request into `vrs_http_request_duration_seconds` when its response finishes (or the
 * connection closes first), labelled with the operation it reached: a request refused before any
 * operation (unknown route, rate limit, unreadable body) counts as operation `none`.
 */
export function requestMetrics(_req: Request, res: Response, next: NextFunction) {
  const started = performance.now();
  const done = () => {
    res.off('finish', done);
    res.off('close', done);
    observePublicRequest(operationOf.get(res), res.statusCode, (performance.now() - started) / 1000);
  };
  res.on('finish', done);
  res.on('close', done);
  next();
}
