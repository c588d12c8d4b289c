import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** Like `http://127.0.0.1:43123`: no trailing slash. */
  url: string;
  /** Stops listening and ends every open connection (keep-alive ones too). */
  close(): Promise<void>;
}

/** Listens on a free loopback port: fakes take traffic from this machine only. */
export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
