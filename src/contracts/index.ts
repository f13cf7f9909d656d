export type { Contract, ContractEvent, ContractMethod, ParamDescriptor, ParamStructure } from './contractModel.js';
export { loadContract, loadContractSync, parseContract, type LoadContractOptions } from './loadContract.js';
export { formatViolation, SchemaValidators, type SchemaCheck, type SchemaViolation } from './schemaValidators.js';
export { validateOpenRpcDocument } from './metaSchema.js';
