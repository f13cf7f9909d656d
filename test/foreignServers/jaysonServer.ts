import jayson from 'jayson';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { calculator, DomainError, InvalidParams, namedParams } from './calculatorContract.js';

export interface ForeignServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The calculator as a jayson server, errors made with `server.error`. */
function calculatorServer(): jayson.Server {
  const server = new jayson.Server(
    Object.fromEntries(
      Object.entries(calculator).map(([name, handler]) => [
        name,
        (params: unknown, callback: (error: unknown, result?: unknown) => void) => {
          try {
            callback(null, handler(namedParams(params)));
          } catch (error) {
            if (error instanceof InvalidParams) callback(server.error(-32602, error.message));
            else if (error instanceof DomainError) callback(server.error(error.code, error.message));
            else callback(error);
          }
        },
      ]),
    ) as Record<string, jayson.MethodLike>,
  );
  return server;
}

/** The calculator on jayson's own WebSocket server (`jayson.Server#websocket`). */
export async function startJaysonServer(): Promise<ForeignServer> {
  const server = calculatorServer();
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  // jayson types its option with its own copy of ws; the server it is given is ours.
  server.websocket({ wss } as unknown as Parameters<typeof server.websocket>[0]);
  return servedOn(wss);
}

/** The calculator on jayson's HTTP server (`jayson.Server#http`): one POST per request. */
export async function startJaysonHttpServer(): Promise<ForeignServer> {
  const http = calculatorServer().http();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** A listening `ws` server as a foreign server: its URL, and a close that drops its clients first. */
export function servedOn(wss: WebSocketServer): ForeignServer {
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}
