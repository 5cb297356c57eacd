import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListeningServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  server: Server;
  /** Ends every connection, keep-alive and mid-response ones included, so it never waits on a client; then stops listening. */
  close(): Promise<void>;
}

/**
 * Listens on a free port of 127.0.0.1. Takes a request listener (an Express app is one) or a server
 * already set up, for a test that needs its options or listeners.
 */
export async function listenOnFreePort(handler: RequestListener | Server): Promise<ListeningServer> {
  const server = typeof handler === 'function' ? createServer(handler) : handler;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
