// A tiny newline-delimited JSON-RPC server on stdin/stdout, for the client's stdio transport tests.
//   --ready            send a gateway.ready event first
//   --fail-start CODE  write a reason to stderr and exit with CODE before reading anything
//   --linger           keep running after stdin ends (only a signal stops it)
//   --ignore-sigterm   survive SIGTERM too (only SIGKILL stops it)
// Methods: echo (result = params), notify (an event, then the answer), stderr (two stderr lines, then the
// answer), ask (a server→client request; the answer is its result or error), crash (exit 3 without
// answering), kill-self (SIGKILL without answering), huge (a result of params.bytes characters),
// env (result = the value of the variable params.name), pid (result = this process's id), ask-later (answers,
// then sends a server→client request params.ms later), notify-later (answers, then an event params.ms later).
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const send = (frame) => process.stdout.write(`${JSON.stringify(frame)}\n`);

const failStart = args.indexOf('--fail-start');
if (failStart >= 0) {
  process.stderr.write('fatal: cannot import tui_gateway\n');
  process.exit(Number(args[failStart + 1]));
}
if (flag('--ignore-sigterm')) process.on('SIGTERM', () => process.stderr.write('ignoring SIGTERM\n'));
if (flag('--ready')) send({ jsonrpc: '2.0', method: 'event', params: { type: 'gateway.ready', payload: { argv: args } } });

const asked = new Map();
let serverIds = 0;

function onRequest(request) {
  const { id, method, params } = request;
  switch (method) {
    case 'echo':
      return send({ jsonrpc: '2.0', id, result: params ?? null });
    case 'notify':
      send({ jsonrpc: '2.0', method: 'event', params: { type: 'echo.note', session_id: 's', seq: 1, payload: params ?? null } });
      return send({ jsonrpc: '2.0', id, result: 'notified' });
    case 'stderr':
      process.stderr.write('warning: one\nwarning: two\n');
      return send({ jsonrpc: '2.0', id, result: 'logged' });
    case 'ask': {
      const serverId = `s${++serverIds}`;
      asked.set(serverId, id);
      return send({ jsonrpc: '2.0', id: serverId, method: 'confirm', params: params ?? null });
    }
    case 'crash':
      process.stderr.write('Traceback: something broke\n');
      return process.exit(3);
    case 'kill-self':
      return process.kill(process.pid, 'SIGKILL');
    case 'hang':
      // Never answered: what settles the request is the client's timeout or the process ending.
      return undefined;
    case 'huge':
      return send({ jsonrpc: '2.0', id, result: 'x'.repeat(params.bytes) });
    case 'pid':
      return send({ jsonrpc: '2.0', id, result: process.pid });
    case 'ask-later':
      setTimeout(() => send({ jsonrpc: '2.0', id: `late${++serverIds}`, method: 'confirm', params: null }), params.ms);
      return send({ jsonrpc: '2.0', id, result: 'later' });
    case 'notify-later':
      setTimeout(() => send({ jsonrpc: '2.0', method: 'event', params: { type: 'echo.later', session_id: 's', seq: 2, payload: null } }), params.ms);
      return send({ jsonrpc: '2.0', id, result: 'later' });
    case 'env':
      return send({ jsonrpc: '2.0', id, result: process.env[params.name] ?? null });
    default:
      return send({ jsonrpc: '2.0', id, error: { code: -32601, message: `method not found: ${method}` } });
  }
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let frame;
  try {
    frame = JSON.parse(line);
  } catch {
    return send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
  }
  if (typeof frame.method === 'string') return onRequest(frame);
  // An answer to one of our server requests: pass it on as the answer of the request that asked.
  const original = asked.get(frame.id);
  if (original === undefined) return;
  asked.delete(frame.id);
  send({ jsonrpc: '2.0', id: original, ...(frame.error ? { result: { error: frame.error } } : { result: { answered: frame.result } }) });
});
lines.on('close', () => {
  if (!flag('--linger')) process.exit(0);
  setInterval(() => undefined, 1_000);
});
