import { type ContractSet, isPayloadless, type MethodContract } from './contract/contractSet.js';
import type { SchemaValidators } from './contract/schemaValidators.js';

/** A result or event payload the gateway produced that its own contract does not allow. */
export interface ContractViolation {
  readonly kind: 'result' | 'event' | 'server-request';
  /** The method name, the event type or the server request method. */
  readonly subject: string;
  /** Dotted path inside the value ('' for the value itself). */
  readonly path: string;
  readonly reason: string;
  readonly value: unknown;
}

export type StrictOption = boolean | ((violation: ContractViolation) => void);

/**
 * Hermes's `check_result` / `check_payload`: every result and event payload is validated. A violation is always
 * logged; `strict: true` also turns a bad result into -32603 (as HERMES_TEST_ISOLATION raises), and a function
 * receives every violation (the gateway's own tests fail on it).
 */
export class ContractChecker {
  private readonly checksEvents: boolean;

  constructor(
    private readonly contracts: ContractSet,
    private readonly validators: SchemaValidators,
    private readonly strict: StrictOption | undefined,
    private readonly log: (line: string) => void,
  ) {
    this.checksEvents = contracts.documents.some((document) => document.profile === 'hermes');
  }

  /** True when a result violation must replace the answer with an internal error. */
  get raisesOnResult(): boolean {
    return this.strict === true;
  }

  checkResult(method: MethodContract, value: unknown): ContractViolation | undefined {
    if (!method.result) return undefined;
    const issue = this.validators.check(method.result, value);
    if (!issue) return undefined;
    return this.report({ kind: 'result', subject: method.name, path: issue.path.join('.'), reason: issue.reason, value });
  }

  /** The params of a server→client request (by-name slots, or one whole-object slot), as Hermes's `_register` checks them. */
  checkServerRequest(request: MethodContract, params: Record<string, unknown>): ContractViolation | undefined {
    const whole = request.shape === 'whole-object';
    for (const descriptor of request.params) {
      const value = whole ? params : params[descriptor.name];
      const at = whole ? '' : descriptor.name;
      if (value === undefined) {
        if (descriptor.required) return this.report({ kind: 'server-request', subject: request.name, path: at, reason: 'Field required', value: params });
        continue;
      }
      const issue = this.validators.check(descriptor.schema, value);
      if (issue) return this.report({ kind: 'server-request', subject: request.name, path: [at, ...issue.path].filter(Boolean).join('.'), reason: issue.reason, value: params });
    }
    return undefined;
  }

  checkEvent(type: string, payload: unknown): ContractViolation | undefined {
    if (!this.checksEvents) return undefined;
    const declared = this.contracts.notifications.get(type);
    if (!declared) return this.report({ kind: 'event', subject: type, path: '', reason: 'event type not declared by any loaded contract', value: payload });
    if (!declared.payload) return undefined;
    if (isPayloadless(declared.payload.schema)) {
      if (payload === undefined) return undefined;
      return this.report({ kind: 'event', subject: type, path: '', reason: 'a payload-less event must carry no payload', value: payload });
    }
    const issue = this.validators.check(declared.payload, payload === undefined ? {} : payload);
    if (!issue) return undefined;
    return this.report({ kind: 'event', subject: type, path: issue.path.join('.'), reason: issue.reason, value: payload });
  }

  private report(violation: ContractViolation): ContractViolation {
    const where = violation.path ? ` at ${violation.path}` : '';
    this.log(`contract violation: ${violation.kind} of ${violation.subject}${where}: ${violation.reason}`);
    if (typeof this.strict === 'function') this.strict(violation);
    return violation;
  }
}
