import { isJsonObject } from '../../../core/index.js';
import { requires } from '../../../src/run/requirements.js';
import { createBuilt, createSession, runTurns } from './hookDriver.js';
import { HOOK_WAIT_MS, type HookClient } from './hookObserver.js';
import { describe, type HookRun, type HookScenarioContext, objectField, outcome, resultField, runHookScenario, show } from './runHookScenario.js';
import type { HookVerdict } from './hookVerdict.js';

/** An echo session on a new owner connection, built, with two committed turns. */
async function ownerWithTwoTurns(run: HookRun, context: HookScenarioContext): Promise<{ owner: HookClient; sessionId: string }> {
  run.step = 'connect the owner and session.create {model: "echo"}';
  const owner = await context.connect();
  const sessionId = await createBuilt(owner, { model: 'echo' });
  run.sessions.push(sessionId);
  run.step = `two committed turns on ${sessionId}`;
  await runTurns(owner, sessionId, ['first turn', 'second turn']);
  return { owner, sessionId };
}

/*
 * Each scenario judges one rule and looks only at the first event of each kind of its session, so that a target
 * breaking another rule (a duplicated cleanup, say) fails that rule's check and not this one.
 */

/** Abnormal drop of an owner with `close_on_disconnect`: pre_init, post_init, then a ConnectionClosed cleanup counting 2. */
export function cleanupExceptionVerdict(context: HookScenarioContext): Promise<HookVerdict> {
  return runHookScenario('scenario.hooks-cleanup-exception', context, async (run) => {
    const { findings, observer } = run;
    run.step = 'connect the owner and session.create {close_on_disconnect: true, model: "echo"}';
    const owner = await context.connect();
    const sessionId = await createBuilt(owner, { close_on_disconnect: true, model: 'echo' });
    run.sessions.push(sessionId);
    run.step = `two committed turns and one /fail turn on ${sessionId}`;
    await runTurns(owner, sessionId, ['first turn', 'second turn', '/fail on purpose']);
    run.step = `terminate() the owner, then wait for the session_cleanup of ${sessionId} on the observer`;
    owner.terminate();
    const cleanup = await observer.waitFor(sessionId, 'session_cleanup');
    const pre = observer.first(sessionId, 'session_pre_init');
    const post = observer.first(sessionId, 'session_post_init');
    findings.expect(pre !== undefined, `no session_pre_init of ${sessionId} reached the observer`);
    findings.expect(post !== undefined, `no session_post_init of ${sessionId} reached the observer`);
    if (pre && post) findings.expect(pre.index < post.index && post.index < cleanup.index, `the observer saw ${sessionId}'s hooks out of order; expected pre_init, post_init, then cleanup`);
    const count = cleanup.payload['interaction_count'];
    findings.expect(count === 2, `session_cleanup of ${sessionId} has interaction_count ${show(count)}; two turns were committed (a failed turn adds nothing)`);
    const exception = objectField(cleanup.payload, 'exception');
    if (findings.expect(exception?.['type'] === 'ConnectionClosed', `session_cleanup of ${sessionId} after an abnormal drop has exception ${show(cleanup.payload['exception'])}; expected {type: "ConnectionClosed", message: <close code and reason>}`)) {
      const message = exception?.['message'];
      findings.expect(typeof message === 'string' && /\b1006\b/.test(message), `the ConnectionClosed message ${show(message)} does not name the close code 1006`);
    }
    observer.validate(findings, [pre, post, cleanup]);
    return `${sessionId}: pre_init, post_init, then cleanup with ConnectionClosed ("${String(exception?.['message'])}") and interaction_count 2`;
  });
}

/** `session.close` of a session with two committed turns: {closed: true} and a cleanup with exception null, count 2. */
export function normalCloseVerdict(context: HookScenarioContext): Promise<HookVerdict> {
  return runHookScenario('scenario.hooks-normal-close', context, async (run) => {
    const { findings, observer } = run;
    const { owner, sessionId } = await ownerWithTwoTurns(run, context);
    run.step = `session.close ${sessionId}, then wait for its session_cleanup`;
    const closed = await outcome(owner, 'session.close', { session_id: sessionId });
    findings.expect(resultField(closed, 'closed') === true, `session.close answered ${describe(closed)}; a normal close reports success ({closed: true})`);
    const cleanup = await observer.waitFor(sessionId, 'session_cleanup');
    findings.expect(cleanup.payload['exception'] === null, `session_cleanup of ${sessionId} after session.close has exception ${show(cleanup.payload['exception'])}; expected null`);
    findings.expect(cleanup.payload['interaction_count'] === 2, `session_cleanup of ${sessionId} has interaction_count ${show(cleanup.payload['interaction_count'])}; the two committed turns must be kept`);
    observer.validate(findings, [cleanup]);
    return `${sessionId}: {closed: true}, cleanup with exception null and interaction_count 2`;
  });
}

/** `session.reset` after two turns: the previous context as it was, then the count starts again from 0. */
export function resetVerdict(context: HookScenarioContext): Promise<HookVerdict> {
  return runHookScenario('scenario.hooks-reset', context, async (run) => {
    const { findings, observer } = run;
    const { owner, sessionId } = await ownerWithTwoTurns(run, context);
    run.step = `session.reset ${sessionId}`;
    const answer = await outcome(owner, 'session.reset', { session_id: sessionId });
    findings.expect(resultField(answer, 'reset') === true, `session.reset answered ${describe(answer)}; expected {reset: true}`);
    if (answer.kind !== 'result') return '';
    const reset = await observer.waitFor(sessionId, 'session_reset');
    const previous = objectField(reset.payload, 'previous_context');
    findings.expect(
      previous?.['turns'] === 2 && previous['last_role'] === 'assistant',
      `session_reset of ${sessionId} has previous_context ${show(reset.payload['previous_context'])}; expected the context as it was: turns 2, last_role "assistant"`,
    );
    run.step = `one more turn on ${sessionId}, then session.close`;
    await runTurns(owner, sessionId, ['third turn']);
    await outcome(owner, 'session.close', { session_id: sessionId });
    const cleanup = await observer.waitFor(sessionId, 'session_cleanup');
    findings.expect(reset.index < cleanup.index, `the observer saw ${sessionId}'s session_reset after its cleanup`);
    findings.expect(cleanup.payload['interaction_count'] === 1, `session_cleanup of ${sessionId} has interaction_count ${show(cleanup.payload['interaction_count'])}; one turn was committed after the reset (the count restarts from 0)`);
    const turns = objectField(cleanup.payload, 'context')?.['turns'];
    findings.expect(turns === 1, `session_cleanup of ${sessionId} has context.turns ${show(turns)}; the reset emptied the context, then one turn was committed`);
    observer.validate(findings, [reset, cleanup]);
    return `${sessionId}: reset saw turns 2 / last_role "assistant"; after one more turn the cleanup counts 1`;
  });
}

/** A model whose build fails: an `error` event, then a cleanup with AgentBuildError and the same text. */
export function buildFailureVerdict(context: HookScenarioContext): Promise<HookVerdict> {
  return runHookScenario('scenario.hooks-build-failure', context, async (run) => {
    const { findings, observer } = run;
    run.step = 'connect the owner and session.create {model: "fail-build-hooks"}';
    const owner = await context.connect();
    const since = owner.events.length;
    const sessionId = await createSession(owner, { model: 'fail-build-hooks' });
    run.sessions.push(sessionId);
    run.step = `wait for the error event of ${sessionId} on the owner`;
    const error = await owner.events.waitFor({ type: 'error', sessionId, since }, HOOK_WAIT_MS);
    const text = isJsonObject(error.payload) ? error.payload['message'] : undefined;
    run.step = `wait for the session_cleanup of ${sessionId} on the observer`;
    const cleanup = await observer.waitFor(sessionId, 'session_cleanup');
    const exception = objectField(cleanup.payload, 'exception');
    findings.expect(exception?.['type'] === 'AgentBuildError', `session_cleanup of ${sessionId} after a failed build has exception ${show(cleanup.payload['exception'])}; expected type "AgentBuildError"`);
    findings.expect(exception !== undefined && exception['message'] === text, `the cleanup exception message ${show(exception?.['message'])} differs from the error event's text ${show(text)}`);
    findings.expect(observer.first(sessionId, 'session_post_init') === undefined, `${sessionId} never became usable, yet the observer saw a session_post_init for it`);
    run.step = `prompt.submit on the failed session ${sessionId}`;
    const later = await outcome(owner, 'prompt.submit', { session_id: sessionId, text: 'after the failure' });
    findings.expect(later.kind === 'error' && (later.code === 4001 || later.code === 5032), `prompt.submit on a session whose build failed answered ${describe(later)}; expected 4001 (session not found) or 5032 (agent init failed)`);
    observer.validate(findings, [observer.first(sessionId, 'session_pre_init'), cleanup]);
    return `${sessionId}: error "${String(text)}", then cleanup with AgentBuildError and the same message`;
  });
}

/** What every hook scenario needs its documents to declare (the session-hooks extension and the turns it drives). */
export const HOOK_REQUIREMENTS = requires(['hooks.subscribe', 'session.create', 'prompt.submit', 'session.close'], { events: ['session.hook'] });
