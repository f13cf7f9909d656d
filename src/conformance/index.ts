export { CaseSender, type SetupFailure } from './caseSender.js';
export { methodVerdicts } from './methodVerdicts.js';
export { METHOD_CHECKS, type CaseRecord, type CheckStatus, type CheckVerdict, type Counterexample, type MethodCheckId, type MethodRunResult, type Phase } from './methodRunTypes.js';
export { methodSeed, runMethod, type RunMethodOptions } from './runMethod.js';
