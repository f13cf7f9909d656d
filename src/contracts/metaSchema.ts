import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { cachedValidator } from '../../core/validatorCache.js';

const require = createRequire(import.meta.url);

let compiled: ValidateFunction | undefined;

function loadSchema(moduleName: string): Record<string, unknown> {
  const loaded = require(moduleName) as { default?: Record<string, unknown> } & Record<string, unknown>;
  const schema = { ...(loaded.default ?? loaded) };
  // Both schemas name a private dialect URL in $schema; their content is draft-07.
  delete schema['$schema'];
  return schema;
}

/**
 * The OpenRPC meta-schema's validator (@open-rpc/meta-schema over @json-schema-tools/meta-schema), from the validator
 * cache (core/validatorCache.ts) when a run has compiled it before: compiling it is a sixth of a short run's start.
 */
export function openRpcMetaValidator(): ValidateFunction {
  const tools = loadSchema('@json-schema-tools/meta-schema');
  // The OpenRPC meta-schema refers to "https://meta.json-schema.tools" without the trailing slash of that schema's $id.
  const openRpc = JSON.parse(
    JSON.stringify(loadSchema('@open-rpc/meta-schema')).replaceAll('"https://meta.json-schema.tools"', '"https://meta.json-schema.tools/"'),
  ) as Record<string, unknown>;
  // Server urls are templates ("http://${host}:${port}/") in real documents, which format "uri" refuses; formats in
  // the meta-schema only describe metadata, so they are not enforced. The meta-schemas are the packages' own and
  // validate one document each: neither checked against draft-07 nor optimised.
  return cachedValidator('meta-schema', { validateFormats: false, validateSchema: false, code: { optimize: false } }, openRpc, [tools]);
}

/** Validates a document against the OpenRPC meta-schema, compiled (or loaded) once per process. */
export function validateOpenRpcDocument(document: unknown): ErrorObject[] {
  compiled ??= openRpcMetaValidator();
  return compiled(document) ? [] : [...(compiled.errors ?? [])];
}
