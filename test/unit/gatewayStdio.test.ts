import { expect, test } from './helpers/test.js';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { type ContractViolation, startStdioGateway } from '../../gateway/index.js';
import { CLI, REPO, runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

type Frame = Record<string, unknown>;

test.describe.configure({ mode: 'parallel' });

/** Both ends of a stdio gateway in this process: lines written to its stdin, frames parsed from its stdout. */
async function stdioPeer(options: { serverRequestTimeoutMs?: number } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const frames: Frame[] = [];
  const lines: string[] = [];
  let buffer = '';
  output.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
      lines.push(buffer.slice(0, newline));
      frames.push(JSON.parse(buffer.slice(0, newline)) as Frame);
      buffer = buffer.slice(newline + 1);
    }
  });
  const violations: ContractViolation[] = [];
  const dataDir = scratchDir('gateway-stdio');
  const gateway = await startStdioGateway({ input, output, dataDir, buildDelayMs: 5, strict: (violation) => violations.push(violation), ...options });
  const waitFor = async (predicate: (frame: Frame) => boolean, timeoutMs = 5_000): Promise<Frame> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = frames.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching frame; got ${JSON.stringify(frames).slice(0, 500)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  let next = 1;
  const call = async (method: string, params: unknown = {}): Promise<Frame> => {
    const id = `s${next++}`;
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return waitFor((frame) => frame['id'] === id && !('method' in frame));
  };
  /** The payload of the first event of `type` whose params match. */
  const event = async (type: string, match: (params: Frame) => boolean = () => true): Promise<Frame> => {
    const frame = await waitFor((candidate) => candidate['method'] === 'event' && (candidate['params'] as Frame)['type'] === type && match(candidate['params'] as Frame));
    return ((frame['params'] as Frame)['payload'] ?? {}) as Frame;
  };
  return { input, frames, lines, gateway, violations, waitFor, call, event, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

test('over stdio: gateway.ready first (no heartbeat), one JSON value per line, events and server requests on stdout', async () => {
  const peer = await stdioPeer();
  try {
    const ready = await peer.waitFor(() => true);
    expect(ready).toMatchObject({ jsonrpc: '2.0', method: 'event', params: { type: 'gateway.ready', payload: { change_events: true, heartbeat: null, replay_epoch: peer.gateway.core.replayEpoch } } });
    expect('session_id' in (ready['params'] as Frame)).toBe(false);
    expect((await peer.call('ping'))['result']).toEqual({ pong: true });
    peer.input.write('not json\n\n');
    expect((await peer.waitFor((frame) => (frame['error'] as Frame | undefined)?.['code'] === -32700))['id']).toBeNull();
    const created = (await peer.call('session.create', {}))['result'] as { session_id: string };
    await peer.event('session.info');
    await peer.call('prompt.submit', { session_id: created.session_id, text: 'line\nbreak' });
    expect((await peer.event('message.complete'))['text']).toBe('echo: line\nbreak');
    await peer.call('prompt.submit', { session_id: created.session_id, text: '/request approval' });
    const request = await peer.waitFor((frame) => frame['method'] === 'approval');
    peer.input.write(`${JSON.stringify({ jsonrpc: '2.0', id: request['id'], result: { choice: 'session' } })}\n`);
    const answered = await peer.event('message.complete', (params) => String((params['payload'] as Frame)['text']).startsWith('approval'));
    expect(answered['text']).toBe('approval answered: {"choice":"session"}');
    expect(peer.lines.every((line) => !line.includes('\n'))).toBe(true);
    expect(peer.violations).toEqual([]);
  } finally {
    await peer.gateway.close();
    peer.cleanup();
  }
});

test('the end of stdin is the end of the connection: close_on_disconnect sessions close, the gateway shuts down', async () => {
  const peer = await stdioPeer();
  try {
    const created = (await peer.call('session.create', { close_on_disconnect: true }))['result'] as { session_id: string };
    const closed = new Promise<unknown>((resolve) => peer.gateway.core.lifecycle.on('session.closed', (event) => resolve(event.reason)));
    peer.input.end();
    await peer.gateway.ended;
    expect(await closed).toEqual({ kind: 'close_on_disconnect', code: 1000, reason: 'stdin closed' });
    expect(peer.gateway.core.live.get(created.session_id)).toBeUndefined();
  } finally {
    peer.cleanup();
  }
});

test('contract-gate serve --stdio speaks the wire on stdin/stdout and exits when stdin ends', async () => {
  const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--build-delay', '0'], { cwd: REPO });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const linesOut = async (count: number): Promise<Frame[]> => {
    for (let i = 0; i < 400 && stdout.split('\n').filter(Boolean).length < count; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    return stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Frame);
  };
  child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"gateway.ping"}\n');
  const [ready, pong] = await linesOut(2);
  expect((ready?.['params'] as Frame)['type']).toBe('gateway.ready');
  expect(pong).toEqual({ jsonrpc: '2.0', id: 1, result: { ok: true } });
  child.stdin.end();
  expect(await exited).toBe(0);
});

test('serve --stdio refuses transport options that mean nothing on stdio; --server-request-timeout-ms is an option of serve', async () => {
  const refused = await runCli(['serve', '--stdio', '--token', 'secret']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/--stdio takes no --token/);
  expect((await runCli(['serve', '--help'])).stdout).toMatch(/--server-request-timeout-ms <ms>[\s\S]*--stdio/);
});
