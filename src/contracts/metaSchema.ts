import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv } from '../../core/ajv.js';

const require = createRequire(import.meta.url);

let compiled: ValidateFunction | undefined;

function loadSchema(moduleName: string): Record<string, unknown> {
  const loaded = require(moduleName) as { default?: Record<string, unknown> } & Record<string, unknown>;
  const schema = { ...(loaded.default ?? loaded) };
  // Both schemas name a private dialect URL in $schema; their content is draft-07.
  delete schema['$schema'];
  return schema;
}

/** Validates a document against the OpenRPC meta-schema (@open-rpc/meta-schema), compiled once per process. */
export function validateOpenRpcDocument(document: unknown): ErrorObject[] {
  if (!compiled) {
    // Server urls are templates ("http://${host}:${port}/") in real documents, which format "uri" refuses;
    // formats in the meta-schema only describe metadata, so they are not enforced. The meta-schemas are the
    // packages' own and validate one document each: neither checked against draft-07 nor optimised (0.1 s a process).
    const ajv = createAjv({ validateFormats: false, validateSchema: false, code: { optimize: false } });
    ajv.addSchema(loadSchema('@json-schema-tools/meta-schema'));
    // The OpenRPC meta-schema refers to "https://meta.json-schema.tools" without the trailing slash of that schema's $id.
    const openRpc = JSON.parse(
      JSON.stringify(loadSchema('@open-rpc/meta-schema')).replaceAll('"https://meta.json-schema.tools"', '"https://meta.json-schema.tools/"'),
    ) as Record<string, unknown>;
    compiled = ajv.compile(openRpc);
  }
  return compiled(document) ? [] : [...(compiled.errors ?? [])];
}
