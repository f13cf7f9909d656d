import type { CheckId } from '../checks/checkCatalogue.js';
import type { CellBody, CellDeclaration, CellStage, JudgeBody } from './cellTypes.js';
import { firstMissing, notDeclaredReason, type ScenarioRequirements } from './requirements.js';
import type { RunPlan } from './runPlan.js';

/** How one cell of a family differs from the family's defaults. */
export interface CellOptions {
  readonly group?: string;
  readonly timeoutMs?: number;
  readonly stage?: CellStage;
  /** What the run's documents must declare for the cell to mean anything (default: the family's). */
  readonly requires?: ScenarioRequirements;
  /** A judge cell's retry: records afresh what it judges and judges that (`--retries`). */
  readonly rejudge?: CellBody;
  /** See `CellDeclaration.together`. */
  readonly together?: string;
}

/** Why the run's documents make a scenario n/a (they do not declare what it needs), or undefined. */
function notDeclared(needs: ScenarioRequirements | undefined): ((plan: RunPlan) => string | undefined) | undefined {
  if (!needs) return undefined;
  return (plan) => {
    const missing = firstMissing([...plan.contracts, ...plan.extensions], needs);
    return missing === undefined ? undefined : notDeclaredReason(missing);
  };
}

/** A scenario whose needs the run's documents do not declare is n/a before it sends anything. */
function applicable(body: CellBody, inapplicable: ((plan: RunPlan) => string | undefined) | undefined): CellBody {
  if (!inapplicable) return body;
  return (fixtures, evidence) => {
    const reason = inapplicable(fixtures.plan);
    return reason === undefined ? body(fixtures, evidence) : Promise.resolve({ status: 'n/a', detail: reason, violations: [] });
  };
}

/**
 * The declarations of one spec family (`name` is the spec file's `declareFamily` argument): `live` cells drive the
 * target, `judge` cells judge what the setup stage recorded.
 */
export function cellFamily(name: string, requirements?: ScenarioRequirements) {
  const live = (subject: string, check: CheckId, body: CellBody, options: CellOptions = {}): CellDeclaration => {
    const inapplicable = notDeclared(options.requires ?? requirements);
    return {
      subject,
      check,
      group: options.group ?? subject,
      family: name,
      stage: options.stage ?? 'cells',
      timeoutMs: options.timeoutMs,
      ...(inapplicable ? { inapplicable } : {}),
      ...(options.together ? { together: options.together } : {}),
      run: { kind: 'live', body: applicable(body, inapplicable) },
    };
  };
  const judge = (subject: string, check: CheckId, body: JudgeBody, options: CellOptions = {}): CellDeclaration => ({
    ...live(subject, check, async () => ({ status: 'n/a', detail: '', violations: [] }), options),
    run: { kind: 'judge', judge: body, ...(options.rejudge ? { rejudge: options.rejudge } : {}) },
  });
  return { live, judge };
}
