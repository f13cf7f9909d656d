import { expect, test } from './helpers/test.js';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { noAuth } from '../../src/client/connectionAuth.js';
import { drain, drainWanted, exclusively, methodRunLanes, noteTimeout, shareFlowOverLanes, whileJudged } from '../../fixtures/flow.js';
import type { RunPlan } from '../../src/run/runPlan.js';
import type { Target } from '../../src/run/target.js';
import { scratchDir } from './helpers/scratchDir.js';

// The flow rules as the run engine's lanes see them, all in one process: a timeout in one lane makes every lane
// drain before its next request, and while one lane judges a timeout the others hold their requests. (Across
// Playwright workers the same rules go through marker files; test/unit/targetDown.test.ts runs them end to end.)
function planIn(workDir: string, workers: number | undefined = 1): RunPlan {
  const config = { maxInFlight: 4, workers, drainLimitMs: 2_000, requestTimeoutMs: 500, probeMethod: 'ping' };
  return { config, workDir } as unknown as RunPlan;
}

test("the budget's method runs at once: the engine's lanes when it runs the plan, else the Playwright workers", () => {
  // Without --workers the engine runs max(2, --max-in-flight) lanes, Playwright half the CPUs (2 in CI): a budget
  // spread over Playwright's count would think the engine's lanes fewer than they are, and cut runs the time allows.
  const engine = planIn('unused', undefined);
  shareFlowOverLanes(engine, 4);
  expect(methodRunLanes(engine)).toBe(4);
  expect(methodRunLanes(planIn('unused', 3)), 'Playwright workers: --workers').toBe(3);
});

test('in the run engine: a timeout asks every lane to drain, per run, until a probe is answered; a judged timeout holds the other lanes', async () => {
  const dir = scratchDir('contract-gate-flow');
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket) => socket.on('message', (data) => socket.send(JSON.stringify({ jsonrpc: '2.0', id: (JSON.parse(String(data)) as { id: unknown }).id, result: 'pong' }))));
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const target = { kind: 'external', url, auth: noAuth() } as unknown as Target;
  try {
    const plan = planIn(join(dir, 'a'));
    const other = planIn(join(dir, 'b'));
    shareFlowOverLanes(plan, 2);
    shareFlowOverLanes(other, 2);
    expect(drainWanted(plan)).toBe(false);
    noteTimeout(plan);
    expect(drainWanted(plan), 'after a timeout').toBe(true);
    expect(drainWanted(other), 'another run in the same process is not drained for it').toBe(false);
    expect(await drain(plan, target), 'the probe is answered').toBe(true);
    expect(drainWanted(plan), 'after the drain').toBe(false);

    const order: string[] = [];
    let release = (): void => undefined;
    const judging = exclusively(plan, () => new Promise<void>((resolve) => (release = resolve)).then(() => order.push('judged')));
    const held = whileJudged(plan).then(() => order.push('next request'));
    const free = whileJudged(other).then(() => order.push('other run'));
    await free;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order, 'held while the timeout is judged').toEqual(['other run']);
    release();
    await Promise.all([judging, held]);
    expect(order).toEqual(['other run', 'judged', 'next request']);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
