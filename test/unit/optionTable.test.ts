import { expect, test } from './helpers/test.js';
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../../cli/main.js';
import { camelCase, helpOf } from '../../cli/lib/commanderOptions.js';
import { DEFAULT_BUILD_DELAY_MS, DEFAULT_HOOK_TIMEOUT_MS, DEFAULT_ORPHAN_GRACE_MS, DEFAULT_SERVER_REQUEST_TIMEOUT_MS, DEFAULT_TICKET_TTL_MS } from '../../gateway/index.js';
import { renderConfigurationDocs } from '../../src/config/configDocs.js';
import { configFileSchema, runConfigSchema } from '../../src/config/configSchema.js';
import { createAjv } from '../../core/ajv.js';
import { configFileOptions, fieldOf, OPTIONS, optionsOf } from '../../src/config/optionTable.js';
import { COMMAND_NAMES, defaultText, flagOf, type OptionSpec } from '../../src/config/optionTypes.js';
import { CHILD_PROCESS_FROM_METHOD_RUNS, parallelismOf, placementFor } from '../../src/config/parallelism.js';
import { decodeRunConfig } from '../../src/config/runConfig.js';
import { DERIVED_DEFAULTS } from '../../src/config/runSettings.js';

const REPO = join(import.meta.dirname, '..', '..');
const entries = Object.entries(OPTIONS) as Array<[string, OptionSpec]>;
const program = buildProgram(() => undefined);
const commandNamed = (name: string): Command => program.commands.find((command) => command.name() === name) as Command;
/** Help as a terminal of any width prints it, folded back to one line per option. */
const helpOfCommand = (name: string): string => commandNamed(name).helpInformation().replace(/\s+/g, ' ');

test('every option of run is a configuration key under its long name in camelCase; no command has a flag twice', () => {
  for (const [key, spec] of optionsOf('run')) expect(camelCase(flagOf(key, spec)), key).toBe(key);
  for (const command of COMMAND_NAMES) {
    const flags = optionsOf(command).map(([key, spec]) => flagOf(key, spec));
    expect(new Set(flags).size, command).toBe(flags.length);
  }
  expect(entries.filter(([, spec]) => spec.commands.length === 0).map(([key]) => key)).toEqual([]);
});

test("each command's help shows each of its options with the table's help and default", () => {
  for (const command of COMMAND_NAMES) {
    const help = helpOfCommand(command);
    for (const [key, spec] of optionsOf(command)) {
      const flag = `--${spec.negate ? 'no-' : ''}${flagOf(key, spec)}`;
      expect(help, `${command} ${flag}`).toContain(flag);
      expect(help, `${command} ${flag}`).toContain(helpOf(spec).replace(/\s+/g, ' '));
      const fallback = defaultText(spec);
      if (fallback !== undefined) expect(helpOf(spec), key).toContain(`(default: ${fallback})`);
    }
    const declared = commandNamed(command).options.map((option) => option.long);
    expect(declared.length, command).toBe(optionsOf(command).length);
  }
  // The drift this table removed: the in-flight default shown is the one the run applies.
  expect(helpOfCommand('run')).toContain(`(default: ${OPTIONS.maxInFlight.default})`);
});

test('the configuration schema holds exactly the keys of run (not --config, --project), with their defaults and help', () => {
  const schema = configFileSchema() as { properties: Record<string, { default?: unknown; description: string }>; definitions: { project: { properties: Record<string, unknown> } } };
  const keys = configFileOptions().map(([key]) => key);
  expect(Object.keys(schema.properties).sort()).toEqual(['$schema', 'projects', ...keys].sort());
  expect(Object.keys(schema.definitions.project.properties).sort()).toEqual([...keys].sort());
  expect(keys).not.toContain('config');
  expect(keys).not.toContain('project');
  for (const [key, spec] of configFileOptions()) {
    expect(schema.properties[key]?.default, key).toEqual(spec.default);
    expect(schema.properties[key]?.description, key).toContain(spec.help);
  }
});

test('the run-configuration decoder fills in exactly the literal defaults of the table, under their field names', () => {
  const minimal = { version: 1, target: { kind: 'embedded', label: 'x' }, contracts: [], extensions: [], profile: 'json-rpc', bindings: 'none', seed: 1, drainLimitMs: 600 };
  const decoded = decodeRunConfig(JSON.stringify(minimal), 'test') as unknown as Record<string, unknown>;
  for (const [key, spec] of optionsOf('run')) {
    const field = fieldOf(key, spec);
    if (field === undefined || field in minimal) continue;
    expect(decoded[field], key).toEqual(spec.default);
  }
  // A field the table does not know is refused: a file written by another version never half-applies.
  expect(() => decodeRunConfig(JSON.stringify({ ...minimal, maxInflight: 3 }), 'test')).toThrow(/must NOT have additional properties/);
  expect(() => decodeRunConfig(JSON.stringify({ ...minimal, runs: 0 }), 'test')).toThrow('run configuration test: runs must be >= 1');
});

test('computed defaults each have their resolver: derived ones in runSettings, profile ones in resolveProfileDefaults', () => {
  const derived = optionsOf('run').filter(([, spec]) => spec.defaultFrom?.by === 'derived').map(([key]) => key);
  expect(derived.sort()).toEqual(Object.keys(DERIVED_DEFAULTS).sort());
  const profile = optionsOf('run').filter(([, spec]) => spec.defaultFrom?.by === 'profile').map(([key]) => key);
  expect(profile.sort()).toEqual(['bindings', 'contract', 'extension', 'profile']);
});

test("serve's help states the reference gateway's own defaults", () => {
  const gatewayDefaults: Record<string, number> = {
    ticketTtlMs: DEFAULT_TICKET_TTL_MS,
    buildDelay: DEFAULT_BUILD_DELAY_MS,
    orphanGrace: DEFAULT_ORPHAN_GRACE_MS,
    serverRequestTimeoutMs: DEFAULT_SERVER_REQUEST_TIMEOUT_MS,
    hookTimeout: DEFAULT_HOOK_TIMEOUT_MS,
  };
  for (const [key, value] of Object.entries(gatewayDefaults)) expect(defaultText(OPTIONS[key as keyof typeof OPTIONS]), key).toBe(String(value));
});

test('docs/configuration.md and docs/config.schema.json are what `npm run docs` writes from the table', () => {
  const stale = 'stale: run `npm run docs` and commit the result';
  expect(readFileSync(join(REPO, 'docs', 'configuration.md'), 'utf8'), stale).toBe(renderConfigurationDocs());
  expect(JSON.parse(readFileSync(join(REPO, 'docs', 'config.schema.json'), 'utf8')), stale).toEqual(configFileSchema());
  for (const [key] of configFileOptions()) expect(renderConfigurationDocs(), key).toContain(`| \`${key}\` |`);
  // A boolean key's default is its value in the file, also where the command line has only its `--no-…` form.
  expect(renderConfigurationDocs()).toContain('| `stdioReuse` | `--no-stdio-reuse` | boolean | `true` |');
  expect(renderConfigurationDocs()).toContain('| `failOnFlaky` | `--fail-on-flaky` | boolean | `false` |');
});

test('a run hosts its method runs\' gateways in a child process only from CHILD_PROCESS_FROM_METHOD_RUNS method runs on; a placement asked for is kept', () => {
  expect(placementFor('by-size', 0)).toBe('this-process');
  expect(placementFor('by-size', CHILD_PROCESS_FROM_METHOD_RUNS - 1)).toBe('this-process');
  expect(placementFor('by-size', CHILD_PROCESS_FROM_METHOD_RUNS)).toBe('child-process');
  expect(placementFor('by-size', 278)).toBe('child-process');
  expect(placementFor('child-process', 1)).toBe('child-process');
  expect(placementFor('this-process', 2_000)).toBe('this-process');
  expect(readFileSync(join(REPO, 'cli', 'commands', 'run.ts'), 'utf8')).toContain("placement: 'by-size'");
});

test('one function splits the workers and the in-flight limit: at least one request per worker, the rate shared', () => {
  expect(parallelismOf({ workers: undefined, maxInFlight: 4, ratePerSecond: undefined }, {}, 8)).toEqual({ workers: 4, perWorker: { maxInFlight: 1 } });
  expect(parallelismOf({ workers: undefined, maxInFlight: 4, ratePerSecond: 10 }, { CI: 'true' }, 8)).toEqual({ workers: 2, perWorker: { maxInFlight: 2, ratePerSecond: 5 } });
  expect(parallelismOf({ workers: 3, maxInFlight: 2, ratePerSecond: undefined }, {}, 1)).toEqual({ workers: 3, perWorker: { maxInFlight: 1 } });
  expect(parallelismOf({ workers: undefined, maxInFlight: 4, ratePerSecond: undefined }, {}, 1).workers).toBe(1);
  const config = readFileSync(join(REPO, 'playwright.config.ts'), 'utf8');
  const flow = readFileSync(join(REPO, 'fixtures', 'flow.ts'), 'utf8');
  expect(config).toContain('workers: parallelismOf(runConfig).workers');
  expect(flow).toContain('parallelismOf(plan.config).perWorker');
});

test('the run configuration and configuration file schemas are valid draft-07 (the run compiles them without checking)', () => {
  for (const [name, schema] of [['run configuration', runConfigSchema()], ['configuration file', configFileSchema()]] as const) {
    const ajv = createAjv({ strict: true, validateSchema: true, useDefaults: true });
    expect(ajv.validateSchema(schema as object), `${name}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
    expect(() => ajv.compile(schema as object), name).not.toThrow();
  }
});
