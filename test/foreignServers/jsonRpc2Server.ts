import { JSONRPCErrorException, JSONRPCServer } from 'json-rpc-2.0';
import { WebSocketServer } from 'ws';
import { calculator, DomainError, InvalidParams, namedParams } from './calculatorContract.js';
import { servedOn, type ForeignServer } from './jaysonServer.js';

/**
 * The calculator on json-rpc-2.0's JSONRPCServer, which brings no transport: each WebSocket frame goes to
 * `receiveJSON` (the library parses it and answers a parse error itself), errors are JSONRPCErrorException. Its
 * error listener, which logs every error a method throws, is silenced.
 */
export async function startJsonRpc2Server(): Promise<ForeignServer> {
  const server = new JSONRPCServer({ errorListener: () => undefined });
  for (const [name, handler] of Object.entries(calculator)) {
    server.addMethod(name, (params: unknown) => {
      try {
        return handler(namedParams(params));
      } catch (error) {
        if (error instanceof InvalidParams) throw new JSONRPCErrorException(error.message, -32602);
        if (error instanceof DomainError) throw new JSONRPCErrorException(error.message, error.code);
        throw error;
      }
    });
  }
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      void server.receiveJSON(data.toString()).then((response) => {
        if (response) socket.send(JSON.stringify(response));
      });
    });
  });
  return servedOn(wss);
}
