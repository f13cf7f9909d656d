export { allOptionalValue, arbitraryFromSchema, minimalValue } from './fromSchema.js';
export { type SchemaArbitraryOptions, UnsatisfiableSchemaError } from './schemaOptions.js';
export { SchemaMemo } from './schemaMemo.js';
export { fakeFromSchema, type FakeOptions, type FakeResult } from './faker.js';
export { DEFAULT_UNKNOWN_KEY, unknownKeyProbes, type KeyPolicy, type UnknownKeyOptions, type UnknownKeyProbe } from './unknownKeys.js';
export { mutationsOf, type Mutation, type MutationKind, type MutationOptions } from './mutations.js';
export {
  DEFAULT_OVERSIZED_BYTES,
  idProbes,
  junkFrames,
  NULL_ID_PROBE,
  oversizedFrame,
  requestFrame,
  type IdProbe,
  type JunkExpectation,
  type JunkFrame,
  type JunkFrameOptions,
} from './frames.js';
export { bundleSchema, DanglingRefError } from './bundleSchema.js';
export { walkValue, type WalkNode } from './walkValue.js';
export { STRING_FORMATS } from './formats.js';
