import { Binder, type RpcCaller } from '../binding/binder.js';
import type { BindingRules } from '../binding/bindingRules.js';
import { withDeclaredErrors, type CodeProfile } from '../checks/codeProfile.js';
import { type Exchange, type JsonSchema, outcomeOf } from '../../core/index.js';
import { SchemaMemo } from '../../fuzz/index.js';
import type { Contract, ContractMethod } from '../contracts/contractModel.js';
import type { SchemaCheck, SchemaValidators } from '../contracts/schemaValidators.js';
import { CaseSender } from './caseSender.js';
import { runInvalidPhase } from './invalidPhase.js';
import { methodBases } from './methodBases.js';
import { failingPredicate, methodVerdicts } from './methodVerdicts.js';
import type { MethodCheckId, MethodRunResult } from './methodRunTypes.js';
import { runProbePhase } from './probePhase.js';
import { SilenceBreaker } from './silenceBreaker.js';
import { runValidPhase } from './validPhase.js';

export interface RunMethodOptions {
  contract: Contract;
  method: ContractMethod;
  profile: CodeProfile;
  validators: SchemaValidators;
  caller: RpcCaller;
  rules: BindingRules;
  seed: number;
  /** fast-check runs of the valid phase, the fixed examples included (fast-check counts them in `numRuns`). */
  runs: number;
  /** Time budget of the valid phase; fast-check stops early rather than lose the seed to a test timeout. */
  timeLimitMs: number;
  requestTimeoutMs: number;
  /** Values of the run no answer may carry (envelope.error-hygiene). */
  secrets?: readonly string[];
  /**
   * Under a time budget: the fixed cases run first (examples, probes, mutations), then this says how many valid
   * runs the method gets (`runs` is the most it may say), given what the fixed cases cost.
   */
  grant?: (measured: FixedCasesCost) => Promise<{ runs: number; timeLimitMs: number; goOn?: (made: number) => boolean }>;
  /** Told after each valid case ends, with the valid cases made so far. */
  onValidCase?: (made: number) => void;
}

/** What one method's fixed cases cost, measured. */
export interface FixedCasesCost {
  /** Fixed examples of the valid phase (counted in its runs). */
  examples: number;
  /** Wall time of one valid case, with the binding calls it needs: the quickest of the examples. */
  perRunMs: number;
  /** Wall time of every fixed case: examples, probes and mutations. */
  fixedMs: number;
}

/** Seeds differ per method so that methods do not all get the same draws. */
export function methodSeed(seed: number, method: string): number {
  let hash = seed | 0;
  for (const char of method) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** Compiles on first use: the params schema is only needed for long strings, the result schema only for successes. */
function lazyCheck(validators: SchemaValidators, schema: JsonSchema): SchemaCheck {
  let check: SchemaCheck | undefined;
  return (value) => (check ??= validators.checker(schema))(value);
}

/** Runs the three phases against one method and judges every method-level check; shrinks what failed. */
export async function runMethod(options: RunMethodOptions): Promise<MethodRunResult> {
  const started = Date.now();
  const { method, contract, validators } = options;
  const profile = withDeclaredErrors(options.profile, method.errors);
  const resolver = contract.resolver;
  const seed = methodSeed(options.seed, method.name);
  const caller = new SilenceBreaker(options.caller, options.requestTimeoutMs);
  const sender = new CaseSender(method, caller, new Binder(options.rules, caller, options.requestTimeoutMs), options.requestTimeoutMs);
  const validateParams = lazyCheck(validators, method.paramsSchema);
  // Made per run: the walks of this method share expansions, no other run sees them.
  const memo = new SchemaMemo(resolver);
  const bases = methodBases(method, resolver, memo);
  const valid = await runValidPhase({ method, resolver, validateParams, sender, seed, runs: options.runs, timeLimitMs: options.timeLimitMs, bases, memo, examplesOnly: options.grant !== undefined, onCase: options.onValidCase });
  const probes = await runProbePhase({ method, resolver, sender, bases, byNameTopLevel: options.profile.byNameTopLevel });
  const invalid = await runInvalidPhase({ method, resolver, sender, bases });
  // Under a budget, shrinking ends where the generated cases must end: it re-sends cases, and a slow target's
  // shrink could otherwise outlast the budget by as much as the cases themselves took.
  let shrinkUntil = Number.POSITIVE_INFINITY;
  if (options.grant) {
    const grant = await options.grant({ examples: valid.examples, perRunMs: valid.caseMs, fixedMs: Date.now() - started });
    shrinkUntil = Date.now() + grant.timeLimitMs;
    // A grant decided again while its cases run (`goOn`) bounds them itself, and may grow once they prove cheaper
    // than the examples they were granted on: up to the runs asked.
    const runs = (grant.goOn ? options.runs : Math.min(grant.runs, options.runs)) - valid.runs;
    // A target that stopped answering gets no generated cases: each would be skipped unsent.
    if (valid.examples > 0 && !caller.open) await valid.extend(runs, Math.min(options.timeLimitMs, grant.timeLimitMs), grant.goOn);
  }
  const records = [...valid.records, ...probes, ...invalid];
  const validateResult = method.resultSchema === undefined ? undefined : lazyCheck(validators, method.resultSchema);
  const notSent = (exchange: Exchange): boolean => caller.notSent(exchange);
  const inputs = { method: method.name, profile, secrets: options.secrets ?? [], declaredStructure: method.declaredStructure, validateResult, notSent, ...(valid.unsatisfiable ? { unsatisfiable: valid.unsatisfiable } : {}) };
  const verdicts = methodVerdicts({ ...inputs, records, setupFailures: sender.setupFailures });
  for (const verdict of verdicts.values()) {
    if (verdict.status !== 'fail') continue;
    const predicate = failingPredicate(verdict.check as MethodCheckId, inputs);
    const firstFailing = records.find(predicate);
    if (!firstFailing) continue;
    // Only valid-phase payloads come from the arbitrary; probes and mutations are already minimal and fixed.
    // A target that stopped answering leaves nothing to shrink: every candidate would be skipped.
    const shrinkLimitMs = Math.min(options.timeLimitMs, shrinkUntil - Date.now());
    const shrunk = firstFailing.phase === 'valid' && !caller.open && shrinkLimitMs > 0 ? await valid.shrink(predicate, shrinkLimitMs) : undefined;
    verdict.counterexample = shrunk ?? { seed, shrinks: 0, record: firstFailing };
  }
  return {
    method: method.name,
    seed,
    records,
    verdicts,
    reached: records.some((r) => outcomeOf(r.exchange).kind === 'result'),
    validRuns: valid.runs,
    elapsedMs: Date.now() - started,
  };
}
