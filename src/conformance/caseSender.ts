import type { Binder, RpcCaller } from '../binding/binder.js';
import { type Exchange, HarnessError, type JsonValue } from '../../core/index.js';
import type { ContractMethod } from '../contracts/contractModel.js';
import { longStringParamsText } from './longStrings.js';
import type { CaseRecord, Phase } from './methodRunTypes.js';

/** A case that could not be sent because its live objects could not be created. */
export interface SetupFailure {
  phase: Phase;
  generated: JsonValue;
  message: string;
}

/** Sends payloads of one method, binding live ids first; fresh methods get new live objects per case. */
export class CaseSender {
  readonly setupFailures: SetupFailure[] = [];

  constructor(
    private readonly method: ContractMethod,
    private readonly caller: RpcCaller,
    private readonly shared: Binder,
    private readonly requestTimeoutMs: number,
  ) {}

  get fresh(): boolean {
    return this.shared.methodBinding(this.method.name)?.fresh === true;
  }

  /** A binder for one case: the shared one, or a fork when the method consumes what it is given. */
  binderFor(forceFresh = false): Binder {
    return this.fresh || forceFresh ? this.shared.fork() : this.shared;
  }

  /** Binds and sends; undefined (and a recorded setup failure) when the live objects could not be made. */
  async send(phase: Phase, generated: JsonValue, options: { binder?: Binder; transform?: (bound: JsonValue) => JsonValue } = {}): Promise<CaseRecord | undefined> {
    const binder = options.binder ?? this.binderFor();
    let bound: { payload: JsonValue; substitutions: Record<string, string> };
    try {
      bound = await binder.bindTraced(this.method.name, generated);
    } catch (error) {
      if (!HarnessError.is(error)) throw error;
      this.setupFailures.push({ phase, generated, message: error.message });
      return undefined;
    }
    const payload = options.transform ? options.transform(bound.payload) : bound.payload;
    const exchange = await this.call(payload, options.transform ? undefined : longStringParamsText(generated, payload), phase === 'invalid');
    return { phase, generated, payload, exchange, substitutions: bound.substitutions, ...(binder.setup.length > 0 && binder !== this.shared ? { setup: [...binder.setup] } : {}) };
  }

  /**
   * `paramsText`: `JSON.stringify(payload)`, when the sender has it. `unansweredPasses`: a negative case (only a
   * success breaks its rule), so its timeout needs no second sending to be judged.
   */
  call(payload: JsonValue, paramsText?: string, unansweredPasses = false): Promise<Exchange> {
    return this.caller.call(this.method.name, payload, { timeoutMs: this.requestTimeoutMs, paramsText, unansweredPasses });
  }
}
