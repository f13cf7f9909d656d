import { startJaysonServer } from './jaysonServer.js';
import { startRpcWebsocketsServer } from './rpcWebsocketsServer.js';
import { calculatorContract } from './calculatorContract.js';
import { writeFileSync } from 'node:fs';

// By hand: `npx tsx test/foreignServers/serve.ts jayson|rpc-websockets CONTRACT.json` prints the URL and serves until killed.
const [name, contractPath] = process.argv.slice(2);
const start = name === 'jayson' ? startJaysonServer : name === 'rpc-websockets' ? startRpcWebsocketsServer : undefined;
if (!start) throw new Error('usage: serve.ts jayson|rpc-websockets [CONTRACT.json]');
if (contractPath) writeFileSync(contractPath, JSON.stringify(calculatorContract(`Calculator on ${name}`, '1.0.0'), null, 2));
const server = await start();
process.stdout.write(`${server.url}\n`);
