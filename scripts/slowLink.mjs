#!/usr/bin/env node
// A far-away link in front of any server: a TCP proxy that holds every chunk the server sends for a fixed delay
// (order kept), so that a fast local node answers like one across the world. Used to try `--budget` on a real
// server (docs/budget.md). Usage: node scripts/slowLink.mjs <listen port> <target host:port> <delay ms>
import { createServer, connect } from 'node:net';

const [listenPort, upstream, delayText] = process.argv.slice(2);
const delayMs = Number(delayText);
const [host, port] = (upstream ?? '').split(':');
if (!listenPort || !host || !port || !Number.isFinite(delayMs) || delayMs < 0) {
  process.stderr.write('usage: node scripts/slowLink.mjs <listen port> <target host:port> <delay ms>\n');
  process.exit(2);
}

const server = createServer((client) => {
  const target = connect(Number(port), host);
  client.pipe(target);
  target.on('data', (chunk) => setTimeout(() => client.writable && client.write(chunk), delayMs));
  const end = () => {
    client.destroy();
    target.destroy();
  };
  target.on('close', () => setTimeout(end, delayMs));
  client.on('close', end);
  target.on('error', end);
  client.on('error', end);
});
server.listen(Number(listenPort), '127.0.0.1', () => process.stdout.write(`slow link: 127.0.0.1:${listenPort} -> ${upstream}, answers held ${delayMs} ms\n`));
