import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middlewares as one Express layer, run in order. Every layer a request passes costs
 * Express's router a path match, a parameter pass and a few closures (ADR 0057): the edge's
 * middlewares that apply to every request need none of that between them. As a layer does, it
 * passes a thrown error or a rejected promise to `next`, and `next(error)` skips the rest.
 */
export function middlewareSeries(...middlewares: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown) => {
      if (error !== undefined && error !== null) return next(error);
      const middleware = middlewares[index++];
      if (!middleware) return next();
      try {
        const result: unknown = middleware(req, res, step);
        if (result instanceof Promise) result.catch(step);
      } catch (thrown) {
        step(thrown ?? new Error('a middleware threw nothing'));
      }
    };
    step();
  };
}
