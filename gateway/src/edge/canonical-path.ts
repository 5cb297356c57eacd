import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@vrs/kit';
import { sendError } from '../errors/envelope';

/** Characters that would change how a path splits or what it means if they appeared decoded. */
const structural = /[%/?#]/g;

/**
 * Decodes each path segment once, so `/channels/%40EEVblog` and `/channels/@EEVblog` name the same
 * channel on every route (the REST handler reads path parameters undecoded; Express decodes them, and
 * throws on a malformed escape). A segment keeps `%`, `/`, `?` and `#` escaped, so decoding never
 * changes how the path splits. A malformed escape (`%zz`, `%`, an invalid UTF-8 sequence such as
 * `%C0%AF`) is a 400 MALFORMED_PATH.
 */
export function canonicalPath(req: Request, res: Response, next: NextFunction) {
  const url = req.url;
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (!path.includes('%')) return next();
  let canonical: string;
  try {
    canonical = path
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(structural, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`))
      .join('/');
  } catch {
    sendError(res, new AppError('MALFORMED_PATH'), req.requestId);
    return;
  }
  req.url = queryStart === -1 ? canonical : canonical + url.slice(queryStart);
  next();
}
