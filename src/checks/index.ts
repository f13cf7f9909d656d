export { CheckCatalogue, CHECKS, GENERIC_CATALOGUE, type CheckArea, type CheckDefinition, type CheckId, type GenericCheckId } from './checkCatalogue.js';
export { checkErrorShape, checkIdEcho, checkJsonrpcVersion, checkResultXorError, ENVELOPE_CHECKS, type EnvelopeCheckId } from './envelopeChecks.js';
export { checkEventEnvelope, checkEventPayload, checkSeqSequence } from './eventChecks.js';
export { classifyExchange, describeExchange, type OutcomeClass } from './outcomeClass.js';
export { checkInvalidNotAccepted, checkUnknownKeyRejected, checkUnknownKeyTolerated, checkValidAccepted } from './paramsChecks.js';
export { codeProfileFromData, extendCodeProfile, readProfileData, withDeclaredErrors, type CodeProfile } from './codeProfile.js';
export { checkResultSchema } from './resultChecks.js';
export { ANNOTATION, cellFromTags, checkTag, methodTag, type CellKey } from './tags.js';
export { violation, type Violation } from './violation.js';
