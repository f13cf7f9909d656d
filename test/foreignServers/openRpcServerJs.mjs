// The petstore example of @open-rpc/examples served by @open-rpc/server-js in mock mode over its WebSocket
// transport, as that framework's README shows it: `node openRpcServerJs.mjs` prints the URL. It runs in a child
// process because the transport parses every frame with an unguarded JSON.parse: a non-JSON frame throws out of
// the socket's message handler and ends the process.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const { Server, transports } = require('@open-rpc/server-js');
const document = JSON.parse(readFileSync(require.resolve('@open-rpc/examples/build/service-descriptions/petstore-openrpc.json'), 'utf8'));

const server = new Server({ openrpcDocument: document, methodMapping: { mockMode: true } });
const transport = new transports.WebSocketTransport({ port: 0, middleware: [] });
server.addTransport(transport);
await server.start();
process.stdout.write(`ws://127.0.0.1:${transport.server.address().port}/\n`);
