import type { NextFunction, Request, Response } from 'express';
import { requestLogFields, type Logger } from '@vrs/kit';

/**
 * One line per request when its response is finished (or the connection closed before it was).
 * Headers and query strings are never logged: they carry API keys, cookies and what people search
 * for. Only a 500 (a fault of ours) or a response never finished is an error; an outage answered as
 * such (503 `AI_UNAVAILABLE`, 502, 504, 507) is a warning: an expected answer, counted in metrics.
 */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      const finished = res.writableFinished;
      const failed = !finished || res.statusCode === 500;
      const level = failed ? 'error' : res.statusCode >= 500 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const accountId = req.principal?.accountId;
      logger[level](
        {
          ...requestLogFields(req),
          ...(accountId ? { accountId } : {}),
          req: { method: req.method, path: req.originalUrl.split('?')[0] },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        },
        !finished ? 'request aborted' : failed ? 'request failed' : 'request completed',
      );
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
