import { expect, test } from './helpers/test.js';
import { HarnessError, outcomeOf } from '../../core/index.js';
import type { ConnectionAuth } from '../../src/client/connectionAuth.js';
import { connectTarget, type ConnectTargetOptions } from '../../src/client/connectTarget.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';

const SERVER = 'test/unit/helpers/stdioEchoServer.mjs';
/** The node binary quoted, so the command line goes through the splitter's quoting too. */
const target = (...flags: string[]): string => `stdio:'${process.execPath}' ${SERVER} ${flags.join(' ')}`.trim();

function connect(flags: string[] = ['--ready'], options: Partial<ConnectTargetOptions> = {}): Promise<RpcClient> {
  return connectTarget({ dialect: HERMES_DIALECT, target: target(...flags), readyTimeoutMs: 5_000, requestTimeoutMs: 5_000, ...options });
}

test('a spawned gateway: ready first, exact answers, events, stderr as notes, and a clean close on end of stdin', async () => {
  const client = await connect();
  expect(client.ready?.type).toBe('gateway.ready');
  expect(client.selectedProtocol).toBeUndefined();
  const echoed = await client.call('echo', { text: 'héllo wörld ✓', n: [1, 2] });
  expect(echoed.correlation).toBe('exact');
  expect(outcomeOf(echoed)).toEqual({ kind: 'result', result: { text: 'héllo wörld ✓', n: [1, 2] } });
  expect(await client.request('notify', { x: 1 })).toBe('notified');
  expect(client.events.all({ type: 'echo.note' })[0]?.payload).toEqual({ x: 1 });
  await client.request('stderr');
  client.sendRaw('not json');
  expect(await client.nextStrayFrame(5_000)).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}');
  const info = await client.close();
  expect(info).toEqual({ code: 0, reason: 'exit code 0' });
  expect(client.isOpen).toBe(false);
  const lines = client.transcript.render().split('\n').map((line) => line.replace(/ \+\d+ms\]/, ']'));
  expect(lines[0]).toBe(`-- [c1] connect ${target('--ready')}`);
  expect(lines).toContain('-- [c1] stderr: warning: one');
  expect(lines).toContain('-- [c1] stderr: warning: two');
  expect(lines).toContain('>> [c1] not json');
  expect(lines.at(-2)).toBe('-- [c1] closed (the process exited with code 0)');
});

test('a child that crashes mid-request is a closed connection with its exit code, and its stderr is in the transcript', async () => {
  const client = await connect();
  const exchange = await client.call('crash', {});
  expect(exchange.failure).toEqual({
    code: 'CONNECTION_CLOSED',
    message: 'the target closed the connection (the process exited with code 3) before answering',
    closeCode: 3,
    closeReason: 'exit code 3',
  });
  expect(client.transcript.render()).toContain('stderr: Traceback: something broke');
  const after = await client.call('echo', {});
  expect(after.failure?.message).toBe('[CONNECTION_CLOSED] cannot send echo: the connection is closed (code 3)');
});

test('a child killed by a signal names the signal; terminate() kills the child', async () => {
  const killed = await connect();
  const exchange = await killed.call('kill-self', {});
  expect(exchange.failure?.message).toBe('the target closed the connection (the process was killed by SIGKILL) before answering');
  expect(exchange.failure?.closeCode).toBe(137);

  const dropped = await connect();
  // A method the server never answers: an unknown one is answered -32601 at once, which can beat the kill.
  const pending = dropped.call('hang', {}, { timeoutMs: 30_000 });
  dropped.terminate();
  expect((await pending).failure?.closeReason).toBe('signal SIGKILL');
});

test('a child that ignores the end of stdin gets SIGTERM after the grace period, and SIGKILL after twice that', async () => {
  const lingering = await connect(['--ready', '--linger'], { stdio: { closeGraceMs: 100 } });
  expect(await lingering.close()).toEqual({ code: 143, reason: 'signal SIGTERM' });
  const stubborn = await connect(['--ready', '--linger', '--ignore-sigterm'], { stdio: { closeGraceMs: 100 } });
  const started = Date.now();
  expect(await stubborn.close()).toEqual({ code: 137, reason: 'signal SIGKILL' });
  expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  expect(stubborn.transcript.render()).toContain('stderr: ignoring SIGTERM');
});

test('server→client requests over stdio are answered by the handler, or -32601 without one', async () => {
  const handled = await connect(['--ready'], { answerServerRequest: (request) => Promise.resolve({ result: { approved: request.params ?? null } }) });
  expect(await handled.request('ask', { tool: 'shell' })).toEqual({ answered: { approved: { tool: 'shell' } } });
  expect(handled.serverRequests.map((r) => [r.method, r.status])).toEqual([['confirm', 'answered']]);
  await handled.close();

  const plain = await connect();
  expect(await plain.request('ask', {})).toEqual({ error: { code: -32601, message: 'the client does not handle server requests' } });
  await plain.close();
});

test('a child that exits at start is GATEWAY_UNREACHABLE with its exit code and last stderr lines', async () => {
  const error = await connect(['--fail-start', '2']).catch((e: unknown) => e);
  expect(HarnessError.is(error)).toBe(true);
  expect((error as Error).message).toMatch(/^\[GATEWAY_UNREACHABLE\] stdio:.* ended right after it started \(the process exited with code 2\); its last stderr lines: fatal: cannot import tui_gateway$/);
});

test('a command that cannot be started, or a command line that does not parse, is an error naming it', async () => {
  const missing = await connectTarget({ dialect: HERMES_DIALECT, target: 'stdio:/no/such/gateway --flag' }).catch((e: unknown) => e);
  expect((missing as HarnessError).code).toBe('GATEWAY_UNREACHABLE');
  expect((missing as Error).message).toContain('cannot start stdio:/no/such/gateway --flag: spawn /no/such/gateway ENOENT');
  const unparsed = await connectTarget({ dialect: HERMES_DIALECT, target: 'stdio:python -c "oops' }).catch((e: unknown) => e);
  expect((unparsed as HarnessError).code).toBe('USAGE');
  expect((unparsed as Error).message).toContain('unterminated double quote');
});

test('a line over the frame limit drops the child, and the message says the client did it', async () => {
  const client = await connect(['--ready'], { maxFrameBytes: 64 * 1024 });
  const exchange = await client.call('huge', { bytes: 200 * 1024 });
  expect(exchange.failure?.message).toBe("the client dropped the connection before an answer: the target sent a line longer than the client's limit of 65536 bytes");
});

test('the auth presents environment variables to the child, and its secrets never reach the transcript', async () => {
  const auth: ConnectionAuth = { kind: 'env-ticket', present: () => Promise.resolve({ env: { GATEWAY_TICKET: 'tkt-0451-secret' }, secrets: ['tkt-0451-secret'] }) };
  const client = await connect(['--ready'], { auth });
  expect(await client.request('env', { name: 'GATEWAY_TICKET' })).toBe('tkt-0451-secret');
  await client.close();
  const text = client.transcript.render();
  expect(text).toContain('"result":"***"');
  expect(text).not.toContain('tkt-0451-secret');
});

test('RpcClient.connect speaks stdio too, for a stdio: url', async () => {
  const client = await RpcClient.connect({ dialect: HERMES_DIALECT, url: target('--ready'), name: 'tui' });
  expect(client.ready?.type).toBe('gateway.ready');
  expect(await client.request('echo', [1])).toEqual([1]);
  await client.close();
});
