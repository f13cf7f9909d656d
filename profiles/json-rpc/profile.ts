import { join } from 'node:path';
import { NO_BINDINGS } from '../../src/binding/index.js';
import { codeProfileFromData, readProfileData } from '../../src/checks/codeProfile.js';
import { JSON_RPC_DIALECT } from '../../core/wireDialect.js';
import { PACKAGE_ROOT } from '../../src/config/packagePaths.js';
import type { Profile } from '../../src/profile/profile.js';
import type { ReferenceGateway } from '../../src/profile/referenceGateway.js';

/**
 * Plain JSON-RPC 2.0 over any transport, for any OpenRPC document: -32602 naming the key for params a closed model
 * refuses, the reserved codes as the specification says, notifications as events. It embeds whichever reference
 * gateway the registry gives it (the project's serves any document with its schema-driven responder).
 */
export const jsonRpcProfile = (referenceGateway: ReferenceGateway | undefined): Profile => ({
  name: 'json-rpc',
  description: 'plain JSON-RPC 2.0: -32602 for refused params, notifications as events, no scenarios of its own',
  codes: codeProfileFromData(readProfileData(join(PACKAGE_ROOT, 'profiles', 'json-rpc', 'codes.json'))),
  recognises: () => true,
  defaultContracts: [],
  defaultExtensions: () => [],
  bindingsFor: () => NO_BINDINGS,
  wire: {
    dialect: JSON_RPC_DIALECT,
    // An undeclared method: -32601 is an answer, and every server gives it cheaply.
    probe: { method: 'contract_gate.backlog_probe', params: {} },
    inlineMethods: [],
    readyTimeoutMs: 0,
  },
  checks: [],
  cells: () => [],
  ...(referenceGateway ? { referenceGateway } : {}),
});
