import type { CheckId } from '../../../src/checks/checkCatalogue.js';
import type { ContractMethod } from '../../../src/contracts/contractModel.js';
import { schemaAnswerer } from '../../../src/run/serverRequestAnswers.js';
import { notApplicable, type ScenarioVerdict } from '../../../src/run/scenarioVerdict.js';
import {
  answerAcceptedVerdict,
  cancelVerdict,
  envelopeVerdict,
  openOnResumeVerdict,
  requestDirective,
  type ServerRequestSubject,
} from '../scenarios/serverRequestScenarios.js';
import type { CellBody, CellFixtures } from '../../../src/run/cellTypes.js';
import { SchemaValidators } from '../../../src/contracts/schemaValidators.js';
import type { RunPlan } from '../../../src/run/runPlan.js';
import { unsupported } from './scenarioSetup.js';

/** The checks each declared server request gets, with the session methods each one drives. */
export const SERVER_REQUEST_CHECKS: ReadonlyArray<{ check: CheckId; methods: readonly string[] }> = [
  { check: 'server-request.envelope', methods: ['session.create', 'prompt.submit'] },
  { check: 'server-request.answer-accepted', methods: ['session.create', 'prompt.submit'] },
  { check: 'server-request.cancel', methods: ['session.create', 'prompt.submit', 'session.close'] },
  { check: 'server-request.open-on-resume', methods: ['session.create', 'prompt.submit', 'session.resume'] },
];

/** Every server→client request the target contracts declare, with the contract that declares it. */
export function declaredServerRequests(plan: RunPlan): Array<{ contractIndex: number; request: ContractMethod }> {
  return plan.contracts.flatMap((contract, contractIndex) => contract.serverRequests.map((request) => ({ contractIndex, request })));
}

/**
 * A real gateway asks when its agent decides to; only the reference gateway can be told to (`/request <method>`),
 * so these cells run against an embedded target.
 */
function notProvocable(fixtures: CellFixtures, method: string): ScenarioVerdict | undefined {
  const { plan, target } = fixtures;
  if (target.kind !== 'embedded') return notApplicable(`provoking ${method} needs the reference gateway's "${requestDirective(method)}" turn; the target is external`);
  return unsupported(plan, target, []);
}

/** One cell of a declared server request; the methods it drives are its requirements in the catalogue (SERVER_REQUEST_CHECKS). */
export function serverRequestCell(contractIndex: number, request: ContractMethod, check: CheckId): CellBody {
  return async (fixtures) => {
    const skipped = notProvocable(fixtures, request.name);
    if (skipped) return skipped;
    const { plan, connect } = fixtures;
    const contract = plan.contracts[contractIndex]!;
    const subject: ServerRequestSubject = { contract, request, validators: new SchemaValidators(contract), seed: plan.config.seed };
    const answer = schemaAnswerer(plan.contracts, plan.config.seed);
    switch (check) {
      case 'server-request.envelope':
        return envelopeVerdict(connect, subject, answer);
      case 'server-request.answer-accepted':
        return answerAcceptedVerdict(connect, subject, answer);
      case 'server-request.cancel':
        return cancelVerdict(connect, subject);
      default:
        return openOnResumeVerdict(connect, subject);
    }
  };
}
