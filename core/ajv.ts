import { Ajv, type Options } from 'ajv';
import formatsModule from 'ajv-formats';

// ajv-formats is CommonJS whose exports are the plugin, with itself as `default`: Node's ES module loader gives the
// plugin, TypeScript's types the module. Imported rather than required, so that the bundled command line holds one
// copy of ajv (a required ajv-formats loads the whole of ajv a second time from node_modules).
const addFormats = ((formatsModule as unknown as { default?: (ajv: Ajv) => Ajv }).default ?? formatsModule) as unknown as (ajv: Ajv) => Ajv;

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
