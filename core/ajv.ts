import { Ajv, type Options } from 'ajv';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// ajv-formats is CommonJS with a default export; createRequire avoids the ESM interop trap.
const addFormats = require('ajv-formats') as (ajv: Ajv) => Ajv;

/**
 * One Ajv configuration for the harness. Third-party OpenRPC documents carry vendor keywords and loose
 * draft-07 idioms, so strict mode is off here; the project's own documents are compiled strictly in their tests.
 */
export const AJV_DEFAULTS = { strict: false, allErrors: true, validateFormats: true } as const satisfies Options;

export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ ...AJV_DEFAULTS, ...options });
  addFormats(ajv);
  return ajv;
}
