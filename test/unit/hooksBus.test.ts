import { expect, test } from './helpers/test.js';
import { HookBus, type HookPayloads } from '../../gateway/index.js';
import { sleep } from './helpers/gatewayHarness.js';

const preInit = (): HookPayloads['session_pre_init'] => ({
  hook: 'session_pre_init',
  session_id: 'abcd1234',
  timestamp: '2026-01-01T00:00:00.000Z',
  backend_name: 'reference',
  model_id: 'echo',
  model_options: null,
  context_type: 'SimpleContext',
});

const cleanup = (): HookPayloads['session_cleanup'] => ({
  hook: 'session_cleanup',
  session_id: 'abcd1234',
  timestamp: '2026-01-01T00:00:00.000Z',
  context: { type: 'SimpleContext', turns: 2, last_role: 'assistant' },
  interaction_count: 2,
  exception: null,
});

function bus(timeoutMs = 5_000): { bus: HookBus; logs: string[] } {
  const logs: string[] = [];
  return { bus: new HookBus(timeoutMs, (line) => logs.push(line)), logs };
}

test('handlers run by priority (default 50, ties in registration order) inside mode groups taken in a fixed order', async () => {
  const { bus: hooks } = bus();
  const order: string[] = [];
  const note = (name: string) => () => void order.push(name);
  hooks.on('session_cleanup', note('fire_and_forget p1'), { mode: 'fire_and_forget', priority: 1 });
  hooks.on('session_cleanup', note('concurrent p1'), { mode: 'concurrent', priority: 1 });
  hooks.on('session_cleanup', note('audit p1'), { mode: 'audit', priority: 1 });
  hooks.on('session_cleanup', note('transform p1'), { mode: 'transform', priority: 1 });
  hooks.on('session_cleanup', note('sequential default A'));
  hooks.on('session_cleanup', note('sequential p10'), { priority: 10 });
  hooks.on('session_cleanup', note('sequential default B'));
  hooks.on('session_cleanup', note('sequential p90'), { mode: 'sequential', priority: 90 });
  await hooks.fire(cleanup());
  await hooks.drain();
  expect(order).toEqual(['sequential p10', 'sequential default A', 'sequential default B', 'sequential p90', 'transform p1', 'audit p1', 'concurrent p1', 'fire_and_forget p1']);
});

test('sequential and transform handlers chain their changes; audit, concurrent and fire-and-forget changes are discarded', async () => {
  const { bus: hooks, logs } = bus();
  const seen: string[] = [];
  hooks.on('session_pre_init', (payload) => ({ ...payload, model_id: `${payload.model_id}+seq` }));
  hooks.on('session_pre_init', (payload) => ({ model_id: `${payload.model_id}+transform` }), { mode: 'transform' });
  for (const mode of ['audit', 'concurrent', 'fire_and_forget'] as const) {
    hooks.on(
      'session_pre_init',
      (payload) => {
        seen.push(`${mode}:${payload.model_id}`);
        return { model_id: `${mode}-model` };
      },
      { mode },
    );
  }
  const effective = await hooks.fire(preInit());
  await hooks.drain();
  expect(effective.model_id).toBe('echo+seq+transform');
  expect(seen).toEqual(['audit:echo+seq+transform', 'concurrent:echo+seq+transform', 'fire_and_forget:echo+seq+transform']);
  expect(logs.filter((line) => line.includes('discarded'))).toHaveLength(3);
});

test('only model_id and model_options of session_pre_init are writable; other changes in the same result are dropped, allowed ones kept', async () => {
  const { bus: hooks, logs } = bus();
  hooks.on('session_pre_init', (payload) => ({ ...payload, model_id: 'm2', model_options: { temperature: 1 }, backend_name: 'x', session_id: 'other', hook: 'session_cleanup' as never }));
  const effective = await hooks.fire(preInit());
  expect(effective).toEqual({ ...preInit(), model_id: 'm2', model_options: { temperature: 1 } });
  expect(logs.join('\n')).toContain('handler #1 changed hook, session_id, backend_name, which it may not; dropped');
});

test('observe-only hooks keep their payload whatever a sequential handler returns; ill-typed writes are dropped too', async () => {
  const { bus: hooks } = bus();
  hooks.on('session_cleanup', (payload) => ({ ...payload, interaction_count: 99, exception: { type: 'X', message: 'y' } }));
  expect(await hooks.fire(cleanup())).toEqual(cleanup());
  hooks.on('session_pre_init', () => ({ model_id: 42 as unknown as string, model_options: 'fast' as unknown as null }));
  expect(await hooks.fire(preInit())).toEqual(preInit());
});

test('a handler that throws (at once or later) or mutates its frozen copy is logged and skipped; the others still run', async () => {
  const { bus: hooks, logs } = bus();
  const ran: string[] = [];
  hooks.on('session_pre_init', () => {
    throw new Error('sync boom');
  }, { name: 'sync' });
  hooks.on('session_pre_init', async () => {
    await sleep(1);
    throw new Error('async boom');
  }, { name: 'async' });
  hooks.on('session_pre_init', (payload) => {
    (payload as { model_id: string }).model_id = 'mutated';
  }, { name: 'mutating' });
  hooks.on('session_pre_init', (payload) => void ran.push(payload.model_id), { mode: 'audit' });
  const effective = await hooks.fire(preInit());
  expect(effective).toEqual(preInit());
  expect(ran).toEqual(['echo']);
  expect(logs.filter((line) => line.includes('failed')).map((line) => line.split(': ')[1])).toEqual(['sequential handler sync failed', 'sequential handler async failed', 'sequential handler mutating failed']);
});

test('a handler that exceeds the time limit is logged and skipped, and its late answer is ignored', async () => {
  const { bus: hooks, logs } = bus(40);
  // The slow handler answers only when released, after fire() has returned: fire() cannot have waited for it.
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let answered = (): void => undefined;
  const lateAnswer = new Promise<void>((resolve) => (answered = resolve));
  hooks.on('session_pre_init', async (payload) => {
    await released;
    answered();
    return { ...payload, model_id: 'too-late' };
  }, { name: 'slow' });
  hooks.on('session_pre_init', (payload) => ({ ...payload, model_options: { after: true } }), { name: 'next' });
  const effective = await hooks.fire(preInit());
  expect(effective.model_id).toBe('echo');
  expect(effective.model_options).toEqual({ after: true });
  expect(logs).toContain('hook session_pre_init: sequential handler slow exceeded 40 ms; skipped');
  release();
  await lateAnswer;
  await sleep(20);
  expect(logs.filter((line) => line.includes('slow'))).toHaveLength(1);
});

test('concurrent handlers run at once; fire-and-forget handlers are not awaited and their failures only logged', async () => {
  const { bus: hooks, logs } = bus();
  // Each concurrent handler waits until both have started: run one after the other, the first would wait until the
  // bus gives up on it (its timeout, logged as "exceeded … ms; skipped"). No wall-clock bound, so load cannot fail it.
  let started = 0;
  let finished = 0;
  let bothStarted = (): void => undefined;
  const together = new Promise<void>((resolve) => (bothStarted = resolve));
  const concurrent = async (): Promise<void> => {
    if (++started === 2) bothStarted();
    await together;
    finished++;
  };
  hooks.on('session_cleanup', concurrent, { mode: 'concurrent' });
  hooks.on('session_cleanup', concurrent, { mode: 'concurrent' });
  // The background handler finishes only when released, after fire() has returned.
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let backgroundDone = false;
  hooks.on('session_cleanup', async () => {
    await released;
    backgroundDone = true;
    throw new Error('background boom');
  }, { mode: 'fire_and_forget', name: 'bg' });
  await hooks.fire(cleanup());
  expect(finished).toBe(2);
  expect(logs.filter((line) => line.includes('exceeded'))).toEqual([]);
  expect(backgroundDone).toBe(false);
  release();
  await hooks.drain();
  expect(backgroundDone).toBe(true);
  expect(logs).toContain('hook session_cleanup: fire_and_forget handler bg failed: background boom; skipped');
});

test('an unregistered handler no longer runs; has() reports whether a hook has handlers', async () => {
  const { bus: hooks } = bus();
  let calls = 0;
  const off = hooks.on('session_reset', () => void calls++);
  expect(hooks.has('session_reset')).toBe(true);
  expect(hooks.has('session_cleanup')).toBe(false);
  off();
  expect(hooks.has('session_reset')).toBe(false);
  await hooks.fire({ hook: 'session_reset', session_id: 's', timestamp: '2026-01-01T00:00:00Z', previous_context: { type: 'SimpleContext', turns: 0, last_role: null } });
  expect(calls).toBe(0);
});
