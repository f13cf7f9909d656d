import { expect, test } from './helpers/test.js';
import { rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { parseRunOptions, runConfigFor } from '../../cli/commands/run.js';
import { runInProcess } from '../../fixtures/inProcessRun.js';
import type { MatrixCell } from '../../src/report/matrixTypes.js';
import { scratchDir } from './helpers/scratchDir.js';

// A server that is not the reference gateway and asks its client something (an approval) in the middle of a call:
// the run must answer the request and judge it against the contract's x-server-requests, never drop it silently.
// Written on `ws` alone, as a third party would: it knows nothing of the harness.
const CONTRACT = {
  openrpc: '1.2.6',
  info: { title: 'Approving worker', version: '1.0.0' },
  methods: [
    {
      name: 'job.run',
      paramStructure: 'by-name',
      params: [{ name: 'n', required: true, schema: { type: 'integer', minimum: 0, maximum: 10 } }],
      result: { name: 'outcome', schema: { type: 'object', properties: { done: { type: 'boolean' } }, required: ['done'] } },
    },
  ],
  'x-server-requests': [
    {
      name: 'approval.request',
      paramStructure: 'by-name',
      params: [{ name: 'question', required: true, schema: { type: 'string' } }],
      result: { name: 'answer', schema: { type: 'object', properties: { approved: { type: 'boolean' } } } },
    },
  ],
};

type Mode = 'asks' | 'asks-badly' | 'never-asks';

async function startAskingServer(mode: Mode): Promise<{ url: string; asked: () => number; answered: () => number; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  let asked = 0;
  let answered = 0;
  wss.on('connection', (socket) => {
    const waiting = new Map<string, () => void>();
    let counter = 0;
    const send = (frame: unknown): void => socket.send(JSON.stringify(frame));
    socket.on('message', (data) => {
      let frame: Record<string, unknown>;
      try {
        frame = JSON.parse(data.toString()) as Record<string, unknown>;
      } catch {
        return send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
      }
      if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } });
      if (frame['method'] === undefined && typeof frame['id'] === 'string' && waiting.has(frame['id'])) {
        if ('result' in frame) answered++;
        waiting.get(frame['id'])?.();
        waiting.delete(frame['id']);
        return;
      }
      const id = frame['id'] ?? null;
      if (frame['method'] !== 'job.run') return send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'method not found' } });
      const params = frame['params'] as Record<string, unknown> | undefined;
      const n = params?.['n'];
      if (typeof params !== 'object' || params === null || Array.isArray(params) || !Number.isInteger(n) || (n as number) < 0 || (n as number) > 10 || Object.keys(params).length !== 1) {
        return send({ jsonrpc: '2.0', id, error: { code: -32602, message: 'invalid params: n must be an integer 0..10, and nothing else' } });
      }
      if (mode === 'never-asks') return send({ jsonrpc: '2.0', id, result: { done: true } });
      const askId = `ask-${++counter}`;
      asked++;
      waiting.set(askId, () => send({ jsonrpc: '2.0', id, result: { done: true } }));
      send({ jsonrpc: '2.0', id: askId, method: 'approval.request', params: { question: mode === 'asks' ? `run job ${String(n)}?` : 5 } });
    });
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    asked: () => asked,
    answered: () => answered,
    close: () => new Promise<void>((resolve) => wss.close(() => resolve())),
  };
}

async function judged(mode: Mode): Promise<{ cell: MatrixCell | undefined; asked: number; answered: number }> {
  const server = await startAskingServer(mode);
  const dir = scratchDir('contract-gate-asking');
  try {
    const contract = join(dir, 'asking.openrpc.json');
    writeFileSync(contract, JSON.stringify(CONTRACT));
    const args = ['--target', server.url, '--contract', contract, '--seed', '1', '--runs', '3', '--workers', '1', '--report-dir', join(dir, 'report'), '--grep', '@method:(job\\.run|approval\\.request)(?=\\s|$)'];
    const { matrix } = await runInProcess(await runConfigFor(parseRunOptions(args)));
    return { cell: matrix.cells.find((cell) => cell.method === 'approval.request' && cell.check === 'server-request.envelope'), asked: server.asked(), answered: server.answered() };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a foreign server that asks during a call: every request is answered and judged against x-server-requests; a malformed one fails; none asked is n/a, never pass', async () => {
  test.setTimeout(90_000);
  const [asks, badly, never] = await Promise.all([judged('asks'), judged('asks-badly'), judged('never-asks')]);

  expect(asks.asked).toBeGreaterThan(0);
  expect(asks.answered, 'the harness answered every request the server sent').toBe(asks.asked);
  expect(asks.cell?.status, asks.cell?.detail).toBe('pass');
  expect(asks.cell?.evidence?.serverRequestsAnswered).toBe(asks.asked);

  expect(badly.cell?.status).toBe('fail');
  expect(badly.cell?.detail).toMatch(/approval\.request \(id "ask-\d+"\): params break the declared schema/);
  expect(badly.answered).toBe(badly.asked);

  expect(never.asked).toBe(0);
  expect(never.cell?.status).toBe('n/a');
  expect(never.cell?.detail).toMatch(/^no approval\.request request was observed during the run: an external target asks when it decides to/);
});
