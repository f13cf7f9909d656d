import type { AddressInfo } from 'node:net';
import { Server } from 'rpc-websockets';
import { calculator, DomainError, InvalidParams, namedParams } from './calculatorContract.js';
import type { ForeignServer } from './jaysonServer.js';

/**
 * The calculator on rpc-websockets' Server. Its documented way to answer a chosen error is to throw a plain
 * {code, message} object; a thrown Error becomes -32000 with the error's name as message.
 */
export async function startRpcWebsocketsServer(): Promise<ForeignServer> {
  const server = new Server({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.on('listening', () => resolve()));
  for (const [name, handler] of Object.entries(calculator)) {
    server.register(name, (params) => {
      try {
        return handler(namedParams(params));
      } catch (error) {
        if (error instanceof InvalidParams) throw { code: -32602, message: error.message };
        if (error instanceof DomainError) throw { code: error.code, message: error.message };
        throw error;
      }
    });
  }
  const { port } = server.wss.address() as AddressInfo;
  return { url: `ws://127.0.0.1:${port}/`, close: () => server.close() };
}
