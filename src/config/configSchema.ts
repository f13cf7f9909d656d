import { configFileOptions, fieldOf, optionsOf } from './optionTable.js';
import { defaultText, type OptionKind, type OptionSpec } from './optionTypes.js';
import { ENV_NAME } from './optionValues.js';

type Schema = Record<string, unknown>;

export const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * The JSON Schema of one value. In a configuration file a duration may carry a unit ("5s") and a list may be a
 * single item; the run configuration the CLI writes holds milliseconds and arrays only.
 */
export function valueSchema(kind: OptionKind, inFile: boolean): Schema {
  switch (kind.kind) {
    case 'list': {
      const items = valueSchema(kind.of, inFile);
      const array = { type: 'array', items };
      return inFile ? { anyOf: [items, array] } : array;
    }
    case 'integer':
      return { type: 'integer', ...(kind.min !== undefined ? { minimum: kind.min } : {}), ...(kind.max !== undefined ? { maximum: kind.max } : {}) };
    case 'duration': {
      const ms = { type: 'integer', minimum: kind.min };
      return inFile ? { anyOf: [ms, { type: 'string', pattern: '^\\d+(\\.\\d+)?\\s*(ms|s|m|h)?$' }] } : ms;
    }
    case 'boolean':
      return { type: 'boolean' };
    case 'choice':
      return { enum: [...kind.values] };
    case 'envName':
      return { type: 'string', pattern: ENV_NAME.source };
    case 'regex':
      return { type: 'string', format: 'regex' };
    case 'shard':
      return { type: 'string', pattern: '^[1-9]\\d*/[1-9]\\d*$' };
    default:
      return { type: 'string', minLength: 1 };
  }
}

function described(spec: OptionSpec): string {
  const fallback = defaultText(spec);
  return fallback === undefined ? spec.help : `${spec.help} (default: ${fallback})`;
}

function optionSchema(spec: OptionSpec): Schema {
  return { description: described(spec), ...valueSchema(spec.type, true), ...(spec.default !== undefined ? { default: spec.default } : {}) };
}

/** The JSON Schema of contract-gate.config.{json,mjs,ts}: the options of `run` and named projects overriding them. */
export function configFileSchema(): Schema {
  const properties = Object.fromEntries(configFileOptions().map(([key, spec]) => [key, optionSchema(spec)]));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'contract-gate configuration',
    description: 'Keys are the long options of `contract-gate run` in camelCase; paths are relative to the file; secrets are named by environment variable only.',
    type: 'object',
    properties: {
      $schema: { type: 'string', description: 'where an editor finds this schema' },
      ...properties,
      projects: {
        description: 'named sets of overrides, picked with --project NAME; a project key wins over the top level, the command line over both',
        type: 'object',
        propertyNames: { pattern: PROJECT_NAME.source },
        additionalProperties: { $ref: '#/definitions/project' },
      },
    },
    additionalProperties: false,
    definitions: { project: { type: 'object', properties, additionalProperties: false } },
  };
}

/** The JSON Schema of the run configuration the CLI hands to the workers; `default`s fill the literal defaults in. */
export function runConfigSchema(): Schema {
  const properties: Record<string, Schema> = {};
  const required = ['version', 'target'];
  for (const [key, spec] of optionsOf('run')) {
    const field = fieldOf(key, spec);
    if (field === undefined) continue;
    properties[field] = { ...valueSchema(spec.type, false), ...(spec.default !== undefined ? { default: spec.default } : {}) };
    if (spec.default === undefined && (spec.defaultFrom?.by === 'profile' || spec.defaultFrom?.by === 'derived' || spec.defaultFrom?.by === 'run')) required.push(field);
  }
  const label = { type: 'string', minLength: 1 };
  return {
    type: 'object',
    properties: {
      version: { const: 1 },
      target: {
        oneOf: [
          { type: 'object', properties: { kind: { const: 'embedded' }, label }, required: ['kind', 'label'], additionalProperties: false },
          { type: 'object', properties: { kind: { const: 'external' }, url: label, label }, required: ['kind', 'url', 'label'], additionalProperties: false },
        ],
      },
      shard: { type: 'object', properties: { index: { type: 'integer', minimum: 1 }, total: { type: 'integer', minimum: 1 } }, required: ['index', 'total'], additionalProperties: false },
      auth: { type: 'object' },
      startedAt: { type: 'integer', minimum: 0 },
      ...properties,
    },
    required,
    additionalProperties: false,
  };
}
