// The petstore example of @open-rpc/examples served by @open-rpc/server-js in mock mode, as that framework's README
// shows it: `node openRpcServerJs.mjs` over its WebSocket transport, `node openRpcServerJs.mjs --http` over its HTTP
// one; either prints the URL. It runs in a child process because both transports can end it: the WebSocket one
// parses every frame with an unguarded JSON.parse (a non-JSON frame throws out of the socket's message handler), and
// the HTTP one reads `params[0]` of a request that has no params.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const { Server, transports } = require('@open-rpc/server-js');
const document = JSON.parse(readFileSync(require.resolve('@open-rpc/examples/build/service-descriptions/petstore-openrpc.json'), 'utf8'));

const http = process.argv[2] === '--http';
const server = new Server({ openrpcDocument: document, methodMapping: { mockMode: true } });
const transport = http ? new transports.HTTPTransport({ port: 0, middleware: [] }) : new transports.WebSocketTransport({ port: 0, middleware: [] });
server.addTransport(transport);
await server.start();
process.stdout.write(`${http ? 'http' : 'ws'}://127.0.0.1:${transport.server.address().port}/\n`);
