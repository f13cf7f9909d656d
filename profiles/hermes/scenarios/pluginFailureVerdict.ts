import type { JsonObject, Outcome } from '../../../core/index.js';
import { createBuilt, runTurns } from './hookDriver.js';
import { HookObserver } from './hookObserver.js';
import { type HookRun, type HookScenarioContext, outcome, runHookScenario, show } from './runHookScenario.js';
import { notApplicable, type HookVerdict } from './hookVerdict.js';

/** A reference gateway started beside the target with the given plugins; the scenario closes it. */
export interface SiblingGateway {
  readonly url: string;
  close(): Promise<void>;
}

export type StartSibling = (plugins: string[], hookTimeoutMs: number) => Promise<SiblingGateway>;

export const REFERENCE_ONLY = 'reference gateway only: an external target cannot be asked to install gateway plugins';

/** The handler time limit of the siblings, and how long the sleeping plugin outlasts it. */
const LIMIT_MS = 300;
const SLEEP_MS = 1_500;
const SLACK_MS = 2_000;

const VARIANTS: ReadonlyArray<readonly [string, string[]]> = [
  ['throw-in-cleanup', ['throw-in-cleanup']],
  ['sleep-in-cleanup', [`sleep-in-cleanup:${SLEEP_MS}`]],
];

function answer(result: Outcome): unknown {
  if (result.kind === 'result') return { result: result.result };
  if (result.kind === 'error') return { error: result.code, message: result.message };
  return { [result.kind]: result.kind === 'failure' ? result.failure.code : result.reason };
}

const withoutIdentity = ({ session_id: _id, timestamp: _at, ...rest }: JsonObject): JsonObject => rest;

/** What a client can see of two session ends on one gateway: the answers and the cleanup payloads, ids and times left out. */
async function observe(run: HookRun, url: string): Promise<{ seen: Record<string, unknown>; closeMs: number }> {
  const { context, findings } = run;
  const watch = await HookObserver.subscribe(await context.connect({ url }), context.check, findings);
  if (!(watch instanceof HookObserver)) throw new Error(`the sibling gateway at ${url} refused hooks.subscribe: ${watch.detail}`);
  const owner = await context.connect({ url });
  const closedId = await createBuilt(owner, { close_on_disconnect: true, model: 'echo' });
  await runTurns(owner, closedId, ['first turn', 'second turn', '/fail on purpose']);
  const started = Date.now();
  const closed = await outcome(owner, 'session.close', { session_id: closedId });
  const closeMs = Date.now() - started;
  const again = await outcome(owner, 'session.close', { session_id: closedId });
  const afterwards = await outcome(owner, 'session.history', { session_id: closedId });
  const cleanup = await watch.waitFor(closedId, 'session_cleanup');
  const dropper = await context.connect({ url });
  const droppedId = await createBuilt(dropper, { close_on_disconnect: true, model: 'echo' });
  await runTurns(dropper, droppedId, ['one turn']);
  dropper.terminate();
  const dropCleanup = await watch.waitFor(droppedId, 'session_cleanup');
  watch.validate(findings, [cleanup, dropCleanup]);
  const seen = {
    'session.close': answer(closed),
    'second session.close': answer(again),
    'session.history after the close': answer(afterwards),
    'cleanup after session.close': withoutIdentity(cleanup.payload),
    'cleanup after the owner dropped': withoutIdentity(dropCleanup.payload),
  };
  return { seen, closeMs };
}

/**
 * Reference gateway only (n/a otherwise, after the target's hooks.subscribe): siblings started with a cleanup plugin that throws, and one that sleeps past the handler
 * time limit, show clients exactly what a sibling without plugins shows, and answer the close within the limit.
 */
export async function pluginFailureVerdict(context: HookScenarioContext, startSibling: StartSibling | undefined): Promise<HookVerdict> {
  return runHookScenario('oracle.hooks-plugin-isolation', context, async (run) => {
    if (!startSibling) return notApplicable(REFERENCE_ONLY);
    const { findings } = run;
    const observations = new Map<string, { seen: Record<string, unknown>; closeMs: number }>();
    for (const [name, plugins] of [['no plugin', []] as const, ...VARIANTS]) {
      run.step = `start a sibling gateway with ${name} and end two sessions on it`;
      const sibling = await startSibling([...plugins], LIMIT_MS);
      try {
        observations.set(name, await observe(run, sibling.url));
      } finally {
        await sibling.close();
      }
    }
    const clean = observations.get('no plugin');
    for (const [name] of VARIANTS) {
      const variant = observations.get(name);
      if (!clean || !variant) continue;
      for (const [what, value] of Object.entries(variant.seen)) {
        findings.expect(show(value) === show(clean.seen[what]), `with the ${name} plugin, ${what} gave ${show(value)}; without plugins it gave ${show(clean.seen[what])}`);
      }
      findings.expect(variant.closeMs <= LIMIT_MS + SLACK_MS, `with the ${name} plugin, session.close took ${variant.closeMs} ms; the handler limit is ${LIMIT_MS} ms`);
      findings.note(`${name}: session.close answered in ${variant.closeMs} ms`);
    }
    return `a throwing and an over-long cleanup plugin (limit ${LIMIT_MS} ms) leave the close answers and the cleanup payloads unchanged`;
  });
}
