import type { CheckId } from '../checks/checkCatalogue.js';
import { ENVELOPE_CHECKS, isErrorAnswer } from '../checks/envelopeChecks.js';
import { checkInvalidNotAccepted, checkUnknownKeyRejected, checkUnknownKeyTolerated, checkValidAccepted, mutationText } from '../checks/paramsChecks.js';
import type { CodeProfile } from '../checks/codeProfile.js';
import { checkResultSchema } from '../checks/resultChecks.js';
import { violation, type Violation } from '../checks/violation.js';
import { isJsonObject, outcomeOf, type Exchange } from '../../core/index.js';
import { checkErrorHygiene } from '../checks/errorHygiene.js';
import type { SchemaCheck } from '../contracts/schemaValidators.js';
import type { SetupFailure } from './caseSender.js';
import type { CaseRecord, CheckVerdict, MethodCheckId } from './methodRunTypes.js';
import { SILENT_REQUESTS_LIMIT } from './silenceBreaker.js';

export interface VerdictInputs {
  method: string;
  profile: CodeProfile;
  records: readonly CaseRecord[];
  validateResult: SchemaCheck | undefined;
  setupFailures: readonly SetupFailure[];
  unsatisfiable?: string;
  /** Exchanges never sent because the target had stopped answering; they are counted, not judged. */
  notSent?: (exchange: Exchange) => boolean;
  /** Values of the run that no answer may carry (the token, --secret-env values). */
  secrets?: readonly string[];
  /** OpenRPC's paramStructure as declared, to say which structure a rejected payload used. */
  declaredStructure?: 'by-name' | 'by-position' | 'either';
}

/** When a valid payload was refused by a contract that allows (or prefers) positional params: say what was sent. */
function withStructure(violations: Violation[], exchange: Exchange, declared: VerdictInputs['declaredStructure']): Violation[] {
  if (violations.length === 0 || declared === undefined || declared === 'by-name' || exchange.params === undefined || exchange.params === null) return violations;
  const sent = Array.isArray(exchange.params) ? 'by-position (an array)' : 'by-name (an object)';
  const allows = declared === 'either' ? 'either structure (paramStructure absent or "either")' : 'by-position only';
  return violations.map((v) => ({ ...v, message: `${v.message}; params were sent ${sent}, the contract allows ${allows}` }));
}

/**
 * A request answered more than once breaks the one-to-one pairing of ids that `envelope.id-echo` stands for:
 * a client that correlates by id gets an answer for a request it no longer has.
 */
function repeatedAnswers(exchange: Exchange): Violation[] {
  const extra = exchange.duplicateAnswers ?? [];
  const first = extra[0];
  if (first === undefined) return [];
  const times = `${extra.length + 1}${extra.length >= 4 ? ' or more' : ''} times`;
  return [
    violation(
      'envelope.id-echo',
      `${exchange.method}: request id ${JSON.stringify(exchange.id)} was answered ${times} (again: ${first.slice(0, 200)}); each request gets exactly one response`,
      exchange.id,
    ),
  ];
}

/** Whether the target answered at all: in time, as text that is not JSON, or after the timeout. */
function answerSeen(exchange: Exchange): boolean {
  return exchange.response !== undefined || exchange.responseText !== undefined || exchange.lateAnswer !== undefined;
}

/** Which records a check judges, and how. */
interface Judge {
  applies(record: CaseRecord): boolean;
  judge(record: CaseRecord): Violation[];
  /** Reason when nothing applied. */
  nothingToJudge: string;
}

function judges(inputs: VerdictInputs): Record<MethodCheckId, Judge> {
  const { profile, validateResult } = inputs;
  const answered = (r: CaseRecord): boolean => r.exchange.response !== undefined;
  const envelope = (id: keyof typeof ENVELOPE_CHECKS): Judge => ({
    applies: answered,
    judge: id === 'envelope.id-echo' ? (r) => [...ENVELOPE_CHECKS[id](r.exchange), ...repeatedAnswers(r.exchange)] : (r) => ENVELOPE_CHECKS[id](r.exchange),
    nothingToJudge: 'no answer was received to judge',
  });
  return {
    'params.valid-accepted': {
      applies: (r) => r.phase === 'valid',
      judge: (r) => withStructure(checkValidAccepted(r.exchange, profile), r.exchange, inputs.declaredStructure),
      nothingToJudge: 'no valid payload could be sent',
    },
    'params.unknown-key-rejected': {
      applies: (r) => r.probe?.policy === 'closed',
      judge: (r) => checkUnknownKeyRejected(r.exchange, r.probe?.dottedPath ?? '', profile),
      nothingToJudge: 'the params have no closed model to probe',
    },
    'params.unknown-key-tolerated': {
      applies: (r) => r.probe?.policy === 'open' && r.probe.without !== undefined,
      judge: (r) => (r.probe?.without ? checkUnknownKeyTolerated(r.exchange, r.probe.without, r.probe.dottedPath, profile) : []),
      nothingToJudge: 'the params have no open model to probe',
    },
    'params.invalid-not-accepted': {
      applies: (r) => r.phase === 'invalid',
      judge: (r) => checkInvalidNotAccepted(r.exchange, mutationText(r.mutation)),
      nothingToJudge: 'the params schema admits every value, so no invalid payload exists',
    },
    'result.schema': {
      applies: (r) => validateResult !== undefined && (r.phase === 'valid' || r.probe?.policy === 'open') && outcomeOf(r.exchange).kind === 'result',
      judge: (r) => (validateResult ? checkResultSchema(r.exchange, validateResult) : []),
      nothingToJudge: validateResult ? 'no successful answer to check' : 'the method declares no result schema',
    },
    'envelope.jsonrpc-version': envelope('envelope.jsonrpc-version'),
    'envelope.id-echo': envelope('envelope.id-echo'),
    'envelope.result-xor-error': envelope('envelope.result-xor-error'),
    'envelope.error-shape': {
      // Only an error answer has an error object to judge: a run that received none has seen nothing of this rule.
      applies: (r) => isErrorAnswer(r.exchange),
      judge: (r) => ENVELOPE_CHECKS['envelope.error-shape'](r.exchange),
      nothingToJudge: 'no error answer was received to judge',
    },
    'envelope.error-hygiene': {
      applies: (r) => r.exchange.response !== undefined && isJsonObject(r.exchange.response) && r.exchange.response['error'] !== undefined,
      judge: (r) => checkErrorHygiene(r.exchange, inputs.secrets ?? []),
      nothingToJudge: 'no error answer was received to judge',
    },
  };
}

function summarize(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Turns the records of one method run into one verdict per method-level check. */
export function methodVerdicts(inputs: VerdictInputs): Map<CheckId, CheckVerdict> {
  const verdicts = new Map<CheckId, CheckVerdict>();
  for (const [check, judge] of Object.entries(judges(inputs)) as Array<[MethodCheckId, Judge]>) {
    const matching = inputs.records.filter((r) => judge.applies(r));
    const applicable = matching.filter((r) => !inputs.notSent?.(r.exchange));
    const unsent = matching.length - applicable.length;
    const unsentNote = unsent > 0 ? `; ${summarize(unsent, 'more case')} not sent: the target had stopped answering` : '';
    const judged = applicable.map((r) => judge.judge(r));
    const violations = judged.flat();
    if (check === 'params.valid-accepted') {
      const setup = inputs.setupFailures.filter((f) => f.phase === 'valid');
      if (inputs.unsatisfiable) {
        verdicts.set(check, { check, status: 'n/a', detail: `no contract-valid payload can be generated: ${inputs.unsatisfiable}`, violations: [], judged: 0, answered: 0 });
        continue;
      }
      if (setup.length > 0 && applicable.length === 0) {
        // Nothing of this method's own rule was judged: the prerequisite failed, which its own cells report.
        const detail = `not judged: the live objects this method needs could not be created: ${setup[0]?.message ?? ''}`;
        verdicts.set(check, { check, status: 'n/a', detail, violations: [], judged: 0, answered: 0 });
        continue;
      }
    }
    if (applicable.length === 0) {
      const detail = unsent > 0 ? `not judged: ${summarize(unsent, 'case')} not sent, the target had left ${SILENT_REQUESTS_LIMIT} requests in a row unanswered` : judge.nothingToJudge;
      verdicts.set(check, { check, status: 'n/a', detail, violations: [], judged: 0, answered: 0 });
      continue;
    }
    const failedCases = judged.filter((found) => found.length > 0).length;
    const answered = applicable.filter((r) => answerSeen(r.exchange)).length;
    const unansweredNote = answered < applicable.length ? ` (${applicable.length - answered} of them unanswered: no success, and no answer to judge)` : '';
    verdicts.set(check, {
      check,
      status: violations.length === 0 ? 'pass' : 'fail',
      detail:
        violations.length === 0
          ? `${summarize(applicable.length, 'exchange')} judged, all conform${unansweredNote}${unsentNote}`
          : `${failedCases} of ${summarize(applicable.length, 'exchange')} broke the rule${unsentNote}: ${violations[0]?.message ?? ''}`,
      violations,
      judged: applicable.length,
      answered,
    });
  }
  return verdicts;
}

/** The judge of one check, for shrinking. */
export function failingPredicate(check: MethodCheckId, inputs: Omit<VerdictInputs, 'records' | 'setupFailures'>): (record: CaseRecord) => boolean {
  const judge = judges({ ...inputs, records: [], setupFailures: [] })[check];
  return (record) => judge.applies(record) && !inputs.notSent?.(record.exchange) && judge.judge(record).length > 0;
}
