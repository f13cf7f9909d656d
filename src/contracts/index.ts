export type { Contract, ContractEvent, ContractMethod, ParamDescriptor, ParamStructure } from './contractModel.js';
export { loadContract, loadContractSync, parseContract, type LoadContractOptions } from './loadContract.js';
export { derefSchema, type JsonSchema, type JsonSchemaObject, type SchemaResolver } from './schemaTypes.js';
export { formatViolation, SchemaValidators, type SchemaCheck, type SchemaViolation } from './schemaValidators.js';
export { validateOpenRpcDocument } from './metaSchema.js';
export { createAjv } from './ajvFactory.js';
