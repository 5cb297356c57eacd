import type { AnyRouter } from '@trpc/server';

/**
 * What every service exposes to whoever hosts it (its own process, or `npm start`'s single
 * process): its router, and start/stop for what runs beside it (index creation, event consumers).
 */
export interface ServiceModule<TRouter extends AnyRouter = AnyRouter> {
  name: string;
  router: TRouter;
  start(): Promise<void>;
  stop(): Promise<void>;
}
