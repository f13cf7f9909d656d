export { CHECKS, checkDefinition, isCheckId, type CheckArea, type CheckDefinition, type CheckId } from './checkCatalogue.js';
export { checkErrorShape, checkIdEcho, checkJsonrpcVersion, checkResultXorError, ENVELOPE_CHECKS, type EnvelopeCheckId } from './envelopeChecks.js';
export { checkEventEnvelope, checkEventPayload, checkSeqSequence } from './eventChecks.js';
export { classifyExchange, describeExchange, type OutcomeClass } from './outcomeClass.js';
export { checkInvalidNotAccepted, checkUnknownKeyRejected, checkUnknownKeyTolerated, checkValidAccepted } from './paramsChecks.js';
export { HERMES_CONTRACT_TITLE, HERMES_PROFILE, JSON_RPC_PROFILE, profileFor, type ContractProfile } from './profile.js';
export { checkResultSchema } from './resultChecks.js';
export { ANNOTATION, cellFromTags, checkTag, methodTag, type CellKey } from './tags.js';
export { violation, type Violation } from './violation.js';
