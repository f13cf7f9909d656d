import type { CheckId } from '../checks/checkCatalogue.js';
import { ENVELOPE_CHECKS } from '../checks/envelopeChecks.js';
import { checkInvalidNotAccepted, checkUnknownKeyRejected, checkUnknownKeyTolerated, checkValidAccepted } from '../checks/paramsChecks.js';
import type { ContractProfile } from '../checks/profile.js';
import { checkResultSchema } from '../checks/resultChecks.js';
import type { Violation } from '../checks/violation.js';
import { outcomeOf } from '../client/exchange.js';
import type { SchemaCheck } from '../contracts/schemaValidators.js';
import type { SetupFailure } from './caseSender.js';
import type { CaseRecord, CheckVerdict, MethodCheckId } from './methodRunTypes.js';

export interface VerdictInputs {
  method: string;
  profile: ContractProfile;
  records: readonly CaseRecord[];
  validateResult: SchemaCheck | undefined;
  setupFailures: readonly SetupFailure[];
  unsatisfiable?: string;
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
    judge: (r) => ENVELOPE_CHECKS[id](r.exchange),
    nothingToJudge: 'no answer was received to judge',
  });
  return {
    'params.valid-accepted': { applies: (r) => r.phase === 'valid', judge: (r) => checkValidAccepted(r.exchange, profile), nothingToJudge: 'no valid payload could be sent' },
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
      judge: (r) => checkInvalidNotAccepted(r.exchange, `${r.mutation?.kind ?? 'mutation'} at ${r.mutation?.dottedPath || '(root)'}: ${r.mutation?.description ?? ''}`),
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
    'envelope.error-shape': envelope('envelope.error-shape'),
  };
}

function summarize(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Turns the records of one method run into one verdict per method-level check. */
export function methodVerdicts(inputs: VerdictInputs): Map<CheckId, CheckVerdict> {
  const verdicts = new Map<CheckId, CheckVerdict>();
  for (const [check, judge] of Object.entries(judges(inputs)) as Array<[MethodCheckId, Judge]>) {
    const applicable = inputs.records.filter((r) => judge.applies(r));
    const violations = applicable.flatMap((r) => judge.judge(r));
    if (check === 'params.valid-accepted') {
      const setup = inputs.setupFailures.filter((f) => f.phase === 'valid');
      if (inputs.unsatisfiable) {
        verdicts.set(check, { check, status: 'n/a', detail: `no contract-valid payload can be generated: ${inputs.unsatisfiable}`, violations: [], judged: 0 });
        continue;
      }
      if (setup.length > 0 && applicable.length === 0) {
        const message = `${inputs.method}: the live objects this method needs could not be created: ${setup[0]?.message ?? ''}`;
        verdicts.set(check, { check, status: 'fail', detail: message, violations: [{ check, message }], judged: 0 });
        continue;
      }
    }
    if (applicable.length === 0) {
      verdicts.set(check, { check, status: 'n/a', detail: judge.nothingToJudge, violations: [], judged: 0 });
      continue;
    }
    const failedCases = applicable.filter((r) => judge.judge(r).length > 0).length;
    verdicts.set(check, {
      check,
      status: violations.length === 0 ? 'pass' : 'fail',
      detail:
        violations.length === 0
          ? `${summarize(applicable.length, 'exchange')} judged, all conform`
          : `${failedCases} of ${summarize(applicable.length, 'exchange')} broke the rule: ${violations[0]?.message ?? ''}`,
      violations,
      judged: applicable.length,
    });
  }
  return verdicts;
}

/** The judge of one check, for shrinking. */
export function failingPredicate(check: MethodCheckId, inputs: Omit<VerdictInputs, 'records' | 'setupFailures'>): (record: CaseRecord) => boolean {
  const judge = judges({ ...inputs, records: [], setupFailures: [] })[check];
  return (record) => judge.applies(record) && judge.judge(record).length > 0;
}
