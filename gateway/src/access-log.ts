import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@vrs/kit';

/**
 * One line per request when its response is finished: method, path, status, time, the
 * request id the caller was given and, once authenticated, the account. Headers and query strings
 * are never logged: they carry API keys, cookies and what people search for.
 */
export function accessLog(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req) => (req as unknown as Request).requestId,
    customAttributeKeys: { reqId: 'requestId' },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
    customProps: (req) => {
      const accountId = (req as unknown as Request).principal?.accountId;
      return accountId ? { accountId } : {};
    },
    wrapSerializers: false,
    serializers: {
      req: (req: IncomingMessage) => ({ method: req.method, path: (req.url ?? '').split('?')[0] }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
  });
}
