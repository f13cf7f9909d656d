import type { RpcClient } from '../../../src/client/rpcClient.js';
import { describeOutcome, type WireEvent, isJsonObject, type JsonObject, outcomeOf } from '../../../core/index.js';
import { HOOK_EVENT, type HookPayloadCheck } from './hookPayloadCheck.js';
import { type HookFindings, type HookVerdict, notApplicable } from './hookVerdict.js';

/** What a hook scenario needs of a connection (an RpcClient, or anything shaped like it). */
export type HookClient = Pick<RpcClient, 'call' | 'request' | 'events' | 'terminate'>;

/** How long a scenario waits for a hook event or a turn of the fake agent. */
export const HOOK_WAIT_MS = 10_000;

export const NOT_DECLARED = 'the target does not declare hooks.subscribe (-32601)';
export const NO_DOCUMENT = 'no loaded document declares the session.hook event: load profiles/hermes/contracts/session-hooks.openrpc.json with --extension';

/** One `session.hook` event as the observer received it, with its place in the observer's event log. */
export interface SeenHook {
  readonly index: number;
  readonly event: WireEvent;
  readonly payload: JsonObject;
}

/** An observer connection: every `session.hook` of every session, read back per session. */
export class HookObserver {
  private constructor(
    readonly client: HookClient,
    private readonly check: HookPayloadCheck,
  ) {}

  /** Subscribes `client` to every hook; an n/a or failing verdict when the target cannot be observed. */
  static async subscribe(client: HookClient, check: HookPayloadCheck | undefined, findings: HookFindings): Promise<HookObserver | HookVerdict> {
    const outcome = outcomeOf(await client.call('hooks.subscribe', {}, { timeoutMs: HOOK_WAIT_MS }));
    if (outcome.kind === 'error' && outcome.code === -32601) return notApplicable(NOT_DECLARED);
    if (outcome.kind !== 'result') {
      findings.fail(`hooks.subscribe {} answered ${describeOutcome(outcome)}; expected {subscribed: [...]}`);
      return findings.verdict('');
    }
    if (!check) return notApplicable(NO_DOCUMENT);
    return new HookObserver(client, check);
  }

  /** The hook events of one session, in arrival order. */
  seen(sessionId: string): SeenHook[] {
    const seen: SeenHook[] = [];
    this.client.events.all({ type: HOOK_EVENT }).forEach((event, index) => {
      const payload = isJsonObject(event.payload) ? event.payload : {};
      if (event.session_id === sessionId || payload['session_id'] === sessionId) seen.push({ index, event, payload });
    });
    return seen;
  }

  all(sessionId: string, hook: string): SeenHook[] {
    return this.seen(sessionId).filter((seen) => seen.payload['hook'] === hook);
  }

  first(sessionId: string, hook: string): SeenHook | undefined {
    return this.all(sessionId, hook)[0];
  }

  /** Waits for the first `hook` of `sessionId` (one already received counts). */
  async waitFor(sessionId: string, hook: string, timeoutMs = HOOK_WAIT_MS): Promise<SeenHook> {
    await this.client.events.waitFor(
      { type: HOOK_EVENT, where: (event) => isJsonObject(event.payload) && event.payload['hook'] === hook && (event.session_id === sessionId || event.payload['session_id'] === sessionId) },
      timeoutMs,
    );
    const found = this.first(sessionId, hook);
    if (!found) throw new Error(`the ${hook} event of ${sessionId} left the observer's event log`);
    return found;
  }

  /** Records a violation per schema problem of each given hook event. */
  validate(findings: HookFindings, seen: ReadonlyArray<SeenHook | undefined>): void {
    for (const hook of seen) {
      if (!hook) continue;
      for (const problem of this.check.problems(hook.event)) findings.fail(`${String(hook.payload['hook'] ?? 'session.hook')} of ${hook.event.session_id ?? '?'} does not match the extension document: ${problem}`);
    }
  }

  /** One line per hook event of the session, for the counterexample. */
  describe(sessionId: string): string[] {
    return this.seen(sessionId).map((seen) => `observer: ${JSON.stringify(seen.event.payload)}`);
  }
}
