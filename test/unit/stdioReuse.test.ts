import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import { connectTarget, type ConnectTargetOptions } from '../../src/client/connectTarget.js';
import type { RpcClient } from '../../src/client/rpcClient.js';
import type { StdioChild } from '../../src/client/stdioChild.js';
import { StdioPool, stdioPool } from '../../src/client/stdioPool.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';

/*
 * `stdio.reuse`: a connection that ends with nothing outstanding leaves its child running, and the next connection
 * of the same command line continues it instead of starting the target again. Each test has a command line of its
 * own (the --tag argument), so that the children it parks are not taken by another test of this worker.
 */
const SERVER = 'test/unit/helpers/stdioEchoServer.mjs';
let tags = 0;

function opener(options: Partial<ConnectTargetOptions> = {}): () => Promise<RpcClient> {
  const target = `stdio:'${process.execPath}' ${SERVER} --ready --tag reuse-${process.pid}-${++tags}`;
  return () => connectTarget({ dialect: HERMES_DIALECT, target, readyTimeoutMs: 5_000, requestTimeoutMs: 5_000, stdio: { reuse: true, closeGraceMs: 500 }, ...options });
}

const pidOf = async (client: RpcClient): Promise<number> => (await client.request('pid')) as number;
const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const transcriptLines = (client: RpcClient): string[] => client.transcript.render().split('\n').map((line) => line.replace(/ \+\d+ms\]/, ']'));

test.afterEach(async () => {
  await stdioPool.closeAll();
});

test('a connection that ends with every request answered leaves its process running, and the next one continues it with the first event it sent', async () => {
  const open = opener();
  const first = await open();
  const pid = await pidOf(first);
  expect(await first.request('notify', { n: 1 })).toBe('notified');
  expect(await first.close()).toEqual({ code: 0, reason: 'kept running' });
  expect(first.isOpen).toBe(false);
  expect(transcriptLines(first).at(-2)).toBe(`-- [c1] closed (the process (pid ${pid}) was kept running for the next connection)`);
  expect(isAlive(pid)).toBe(true);

  const second = await open();
  expect(await pidOf(second), 'the same process').toBe(pid);
  expect(second.ready, "the first connection's gateway.ready").toEqual(first.ready);
  expect(second.events.all({ type: 'echo.note' }), "the first connection's events stay with it").toEqual([]);
  expect(transcriptLines(second)[1]).toBe(`-- [c1] continues the process an earlier connection started (pid ${pid}); its first event was gateway.ready`);
  // Two connections at once: the second one starts a process of its own.
  const third = await open();
  expect(await pidOf(third)).not.toBe(pid);
  await Promise.all([second.close(), third.close()]);
  expect(stdioPool.size).toBe(2);
  await stdioPool.closeAll();
  expect(stdioPool.size).toBe(0);
  expect(isAlive(pid), 'closeAll ends the parked processes').toBe(false);
});

test('a connection that may still receive something ends its process: a timed-out request, a frame sent as is, an unanswered server request', async () => {
  const cases: Array<[string, (client: RpcClient) => Promise<unknown>]> = [
    ['a request that timed out', (client) => client.call('hang', {}, { timeoutMs: 50 })],
    ['a junk frame', async (client) => client.sendRaw('not json')],
    ['a server request left unanswered', (client) => client.call('ask', {}, { timeoutMs: 300 })],
  ];
  for (const [what, act] of cases) {
    const open = opener({ unhandledServerRequests: 'ignore' });
    const client = await open();
    const pid = await pidOf(client);
    await act(client);
    expect(await client.close(), what).toEqual({ code: 0, reason: 'exit code 0' });
    expect(stdioPool.size, what).toBe(0);
    const next = await open();
    expect(await pidOf(next), what).not.toBe(pid);
    await next.close();
    await stdioPool.closeAll();
  }
});

test('without reuse every connection is a process of its own, ended on close', async () => {
  const open = opener({ stdio: { reuse: false, closeGraceMs: 500 } });
  const first = await open();
  const pid = await pidOf(first);
  expect(await first.close()).toEqual({ code: 0, reason: 'exit code 0' });
  expect(stdioPool.size).toBe(0);
  const second = await open();
  expect(await pidOf(second)).not.toBe(pid);
  await second.close();
});

test('a parked process that sends an answer or a request is not handed out again; one that sends an event is, without the event', async () => {
  const open = opener();
  const disturbed = await open();
  const pid = await pidOf(disturbed);
  expect(await disturbed.request('ask-later', { ms: 50 })).toBe('later');
  await disturbed.close();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const next = await open();
  expect(await pidOf(next), 'a request arrived while it was parked').not.toBe(pid);
  expect(await next.request('notify-later', { ms: 50 })).toBe('later');
  const eventful = await pidOf(next);
  await next.close();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = await open();
  expect(await pidOf(after), 'an event while parked is harmless').toBe(eventful);
  expect(after.events.all({ type: 'echo.later' })).toEqual([]);
  await after.close();
});

test('a parked process that ended is not handed out', async () => {
  const open = opener();
  const first = await open();
  const pid = await pidOf(first);
  await first.close();
  process.kill(pid, 'SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 200));
  const next = await open();
  expect(await pidOf(next)).not.toBe(pid);
  await next.close();
});

/** A stand-in for a child: only what the pool reads of one. */
interface FakeChild {
  id: number;
  /** The command line it was started for. */
  key: string;
  isRunning: boolean;
  disturbed: string | undefined;
  ended: Promise<void>;
  close(): Promise<void>;
  stop(): void;
  kill(): void;
}

function fakeChild(id: number, key: string): FakeChild {
  let end!: () => void;
  const child: FakeChild = {
    id,
    key,
    isRunning: true,
    disturbed: undefined,
    ended: new Promise((resolve) => (end = resolve)),
    close: () => {
      child.isRunning = false;
      end();
      return Promise.resolve();
    },
    stop: () => void child.close(),
    kill: () => void child.close(),
  };
  return child;
}

type Step = { op: 'open'; key: string } | { op: 'close'; which: number } | { op: 'close-every' } | { op: 'die'; which: number } | { op: 'disturb'; which: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'b', 'c').map((key): Step => ({ op: 'open', key })), weight: 5 },
  { arbitrary: fc.nat(20).map((which): Step => ({ op: 'close', which })), weight: 2 },
  { arbitrary: fc.constant<Step>({ op: 'close-every' }), weight: 2 },
  { arbitrary: fc.nat(20).map((which): Step => ({ op: 'die', which })), weight: 1 },
  { arbitrary: fc.nat(20).map((which): Step => ({ op: 'disturb', which })), weight: 1 },
);

test('property: the pool hands a child only to a connection of its command line, never to two at once, nor one that ended or sent something while parked', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { maxLength: 80 }), async (steps) => {
      const pool = new StdioPool();
      const held = new Set<FakeChild>();
      const all: FakeChild[] = [];
      for (const next of steps) {
        if (next.op === 'open') {
          let child = pool.take(next.key)?.child as FakeChild | undefined;
          if (child) {
            expect(child.key, 'started for this command line').toBe(next.key);
            expect(held.has(child), 'held by another connection').toBe(false);
            expect(child.isRunning && child.disturbed === undefined, 'running and undisturbed').toBe(true);
          } else {
            child = fakeChild(all.length, next.key);
            all.push(child);
          }
          held.add(child);
        } else if (next.op === 'close' || next.op === 'close-every') {
          const closing = next.op === 'close' ? [...held].slice(next.which % Math.max(1, held.size)).slice(0, 1) : [...held];
          for (const child of closing) {
            held.delete(child);
            if (!pool.park(child.key, { child: child as unknown as StdioChild, ready: undefined }, 10)) await child.close();
          }
        } else {
          const child = all[next.which % Math.max(1, all.length)];
          if (!child || held.has(child)) continue;
          if (next.op === 'die') await child.close();
          else child.disturbed = 'it sent an answer while parked';
        }
        await Promise.resolve();
        expect(pool.size).toBeLessThanOrEqual(8);
      }
      await pool.closeAll();
      expect(pool.size).toBe(0);
    }),
    { numRuns: 200 },
  );
});

test('the pool keeps at most 8 children in all, whatever their command lines; the ninth is refused and left to its caller', () => {
  const pool = new StdioPool();
  const children = Array.from({ length: 10 }, (_, index) => fakeChild(index, `key-${index % 3}`));
  const kept = children.map((child) => pool.park(child.key, { child: child as unknown as StdioChild, ready: undefined }, 10));
  expect(kept).toEqual([true, true, true, true, true, true, true, true, false, false]);
  expect(pool.size).toBe(8);
  expect(pool.take('key-0')?.child).toBe(children[6]);
  expect(pool.park('key-0', { child: children[8] as unknown as StdioChild, ready: undefined }, 10), 'room again').toBe(true);
});
