import type { ErrorObject, ValidateFunction } from 'ajv';
import { cachingAjv } from '../core/validatorCache.js';
import type { JsonSchema, JsonValue, SchemaResolver } from '../core/index.js';
import { copySchemaTree, DanglingRefError } from './bundleSchema.js';

/**
 * Validation used by the generators to settle what the schema itself decides (which `anyOf` branch a value
 * takes, whether a mutation is really rejected). It uses the harness's Ajv configuration (draft-07 + formats),
 * so generators and suites agree on every verdict.
 */
export interface SchemaCheck {
  accepts(schema: JsonSchema, value: JsonValue): boolean;
  errors(schema: JsonSchema, value: JsonValue): ErrorObject[];
}

const checks = new WeakMap<SchemaResolver, SchemaCheck>();

export function schemaCheckFor(resolver: SchemaResolver): SchemaCheck {
  let check = checks.get(resolver);
  if (!check) {
    check = createSchemaCheck(resolver);
    checks.set(resolver, check);
  }
  return check;
}

/**
 * One Ajv per resolver. Each `$ref` target is registered once under its own id and compiled once, however
 * many schemas reach it, which keeps checking many subschemas of one document cheap.
 */
function createSchemaCheck(resolver: SchemaResolver): SchemaCheck {
  // Each schema is compiled once and validates a handful of values: ajv's code optimiser would cost more than it saves.
  // A schema's code depends on its text and the document its references lead into: with the document's digest the
  // compiled code is kept between runs (core/validatorCache.ts).
  const { ajv, cache: disk } = cachingAjv('fuzz', { validateSchema: false, logger: false, inlineRefs: false, code: { optimize: false } }, resolver.documentDigest?.());
  const registered = new Set<string>();
  const compiled = new WeakMap<object, ValidateFunction>();
  const idOf = (ref: string) => `urn:contract-gate:fuzz:${encodeURIComponent(ref)}`;
  const mapRef = (ref: string): string => {
    if (!ref.startsWith('#/')) throw new DanglingRefError(ref);
    if (!registered.has(ref)) {
      registered.add(ref);
      const target = resolver.resolve(ref);
      if (target === undefined) throw new DanglingRefError(ref);
      ajv.addSchema(copySchemaTree(target, mapRef) as object, idOf(ref));
    }
    return idOf(ref);
  };
  // Walks build equal schemas as new objects (a branch, a flattened allOf), so identity misses are looked up by text.
  const byText = new Map<string, ValidateFunction>();
  const validator = (schema: JsonSchema): ValidateFunction | boolean => {
    if (typeof schema === 'boolean') return schema;
    let validate = compiled.get(schema);
    if (!validate) {
      const text = JSON.stringify(schema);
      validate = byText.get(text);
      if (!validate) {
        validate = disk?.load(text);
        if (!validate) {
          validate = ajv.compile(copySchemaTree(schema, mapRef) as object);
          disk?.store(text, ajv, validate);
        }
        byText.set(text, validate);
      }
      compiled.set(schema, validate);
    }
    return validate;
  };
  return {
    accepts(schema, value) {
      const validate = validator(schema);
      return typeof validate === 'boolean' ? validate : validate(value);
    },
    errors(schema, value) {
      const validate = validator(schema);
      if (typeof validate === 'boolean') {
        return validate ? [] : [{ keyword: 'false schema', instancePath: '', schemaPath: '#', params: {}, message: 'boolean schema is false' }];
      }
      return validate(value) ? [] : [...(validate.errors ?? [])];
    },
  };
}
