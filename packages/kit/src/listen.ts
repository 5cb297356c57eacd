import type { Server } from 'node:net';

/** The port a process was told to use is taken: a person must choose, so the message says how. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly host: string,
    setting: string,
  ) {
    super(`Port ${port} on ${host} is already in use (another instance?). Set ${setting} to a free port, or 0 for any free port.`);
    this.name = 'PortInUseError';
  }
}

/** Listens and resolves once bound; a taken port rejects with PortInUseError naming the setting to change. */
export function listen(server: Server, options: { port: number; host: string; setting: string }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(options.port, options.host, options.setting) : error);
    };
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
