import { startJaysonServer } from './jaysonServer.js';
import { startJsonRpc2Server } from './jsonRpc2Server.js';
import { startRpcWebsocketsServer } from './rpcWebsocketsServer.js';

// By hand: `npx tsx test/foreignServers/serve.ts jayson|rpc-websockets|json-rpc-2.0` prints the URL and serves until killed;
// its contract is test/foreignServers/calculator.openrpc.json.
const [name] = process.argv.slice(2);
const start = name === 'jayson' ? startJaysonServer : name === 'rpc-websockets' ? startRpcWebsocketsServer : name === 'json-rpc-2.0' ? startJsonRpc2Server : undefined;
if (!start) throw new Error('usage: serve.ts jayson|rpc-websockets|json-rpc-2.0');
const server = await start();
process.stdout.write(`${server.url}\n`);
