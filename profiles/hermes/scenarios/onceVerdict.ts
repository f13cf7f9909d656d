import { createBuilt, sleep } from './hookDriver.js';
import { describe, type HookScenarioContext, outcome, runHookScenario } from './runHookScenario.js';
import type { HookVerdict } from './hookVerdict.js';

/** How long the observer keeps listening after the barrier, for a late second cleanup. */
const SETTLE_MS = 250;

/**
 * Exactly one cleanup per session: a session closed twice, and a session closed after its owner's drop already
 * ended it. A third session closed last is the barrier: once its cleanup arrived, earlier cleanups have too.
 */
export function onceVerdict(context: HookScenarioContext): Promise<HookVerdict> {
  return runHookScenario('scenario.hooks-once', context, async (run) => {
    const { findings, observer } = run;
    run.step = 'connect the owner and session.create';
    const owner = await context.connect();
    const twice = await createBuilt(owner, { model: 'echo' });
    run.sessions.push(twice);
    run.step = `session.close ${twice} twice`;
    const first = await outcome(owner, 'session.close', { session_id: twice });
    const second = await outcome(owner, 'session.close', { session_id: twice });
    findings.note(`${twice}: first close ${describe(first)}, second close ${describe(second)}`);
    await observer.waitFor(twice, 'session_cleanup');

    run.step = 'a second connection creates a close_on_disconnect session and drops';
    const dropper = await context.connect();
    const dropped = await createBuilt(dropper, { model: 'echo', close_on_disconnect: true });
    run.sessions.push(dropped);
    dropper.terminate();
    await observer.waitFor(dropped, 'session_cleanup');
    run.step = `session.close ${dropped} after its owner dropped`;
    const late = await outcome(owner, 'session.close', { session_id: dropped });
    findings.note(`${dropped}: close after the drop ${describe(late)}`);

    run.step = 'close a barrier session and wait for its cleanup';
    const barrier = await createBuilt(owner, { model: 'echo' });
    run.sessions.push(barrier);
    await outcome(owner, 'session.close', { session_id: barrier });
    await observer.waitFor(barrier, 'session_cleanup');
    await sleep(SETTLE_MS);

    for (const [sessionId, how] of [
      [twice, 'closed twice'],
      [dropped, 'ended by a drop, then closed'],
      [barrier, 'closed once'],
    ] as const) {
      const count = observer.all(sessionId, 'session_cleanup').length;
      findings.expect(count === 1, `${sessionId} (${how}) gave ${count} session_cleanup events; exactly one is allowed per session`);
    }
    observer.validate(findings, [observer.first(twice, 'session_cleanup'), observer.first(dropped, 'session_cleanup')]);
    return `one cleanup each for ${twice} (closed twice), ${dropped} (dropped, then closed) and ${barrier}`;
  });
}
