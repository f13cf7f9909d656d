import type { RuleId } from '../../../src/checks/checkCatalogue.js';
import { describeOutcome, isJsonObject, type JsonValue, type Outcome, outcomeOf } from '../../../core/index.js';
import type { HookPayloadCheck } from './hookPayloadCheck.js';
import { type HookClient, HookObserver } from './hookObserver.js';
import { aborted, HookFindings, type HookVerdict } from './hookVerdict.js';

/** What every hook scenario gets: a way to open connections, and the payload check of the extension document. */
export interface HookScenarioContext {
  /** Opens a connection to the target (or to `url`); the caller closes every connection afterwards. */
  connect(options?: { url?: string }): Promise<HookClient>;
  /** Undefined when no loaded document declares `session.hook`. */
  check: HookPayloadCheck | undefined;
}

/** The state of one scenario run: its findings, its observer, the step it is at and the sessions it watches. */
export interface HookRun {
  readonly findings: HookFindings;
  readonly observer: HookObserver;
  readonly context: HookScenarioContext;
  /** Named in the verdict when the scenario stops on an unexpected answer. */
  step: string;
  /** Their hook events become the counterexample. */
  readonly sessions: string[];
}

/**
 * Opens an observer and runs `body`, which returns its pass detail (or a verdict of its own, e.g. n/a); n/a when the
 * target does not declare the hooks, a failure naming the step when an answer stops the scenario. The observer's
 * view of the watched sessions goes to the counterexample.
 */
export async function runHookScenario(check: RuleId, context: HookScenarioContext, body: (run: HookRun) => Promise<string | HookVerdict>): Promise<HookVerdict> {
  const findings = new HookFindings(check);
  const observer = await HookObserver.subscribe(await context.connect(), context.check, findings);
  if (!(observer instanceof HookObserver)) return observer;
  const run: HookRun = { findings, observer, context, step: 'start', sessions: [] };
  let passDetail = '';
  let stopped: unknown;
  try {
    const outcome = await body(run);
    if (typeof outcome !== 'string') return outcome;
    passDetail = outcome;
  } catch (error) {
    stopped = error;
  }
  for (const sessionId of run.sessions) for (const line of observer.describe(sessionId)) findings.note(line);
  return stopped === undefined ? findings.verdict(passDetail) : aborted(findings, run.step, stopped);
}

/** A call's outcome, never throwing. */
export async function outcome(client: HookClient, method: string, params: unknown): Promise<Outcome> {
  return outcomeOf(await client.call(method, params));
}

export const describe = describeOutcome;

/** The `field` of a result object, or undefined. */
export function resultField(answer: Outcome, field: string): JsonValue | undefined {
  return answer.kind === 'result' && isJsonObject(answer.result) ? answer.result[field] : undefined;
}

/** The named field of a hook payload as an object, or undefined. */
export function objectField(payload: Record<string, JsonValue>, field: string): Record<string, JsonValue> | undefined {
  const value = payload[field];
  return isJsonObject(value) ? value : undefined;
}

export const show = (value: unknown): string => JSON.stringify(value) ?? 'undefined';
