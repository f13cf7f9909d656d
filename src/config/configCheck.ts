import type { ErrorObject } from 'ajv';
import { createAjv } from '../../core/ajv.js';
import { HarnessError, isJsonObject } from '../../core/index.js';
import { configFileSchema, PROJECT_NAME } from './configSchema.js';
import { configFileOptions } from './optionTable.js';
import type { OptionSpec } from './optionTypes.js';
import { ENV_NAME, normalizeFileValue, OptionValueError } from './optionValues.js';

/** Keys that would hold a secret itself: in a configuration file a secret is only ever named by variable (`…Env`). */
const SECRET_WORDS = /token|password|passwd|passphrase|cookie|ticket|credential|secret|apikey|api_key/i;

const OPTIONS = new Map<string, OptionSpec>(configFileOptions());

function usage(origin: string, message: string): HarnessError {
  return new HarnessError('USAGE', `${origin}: ${message}`);
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** The known key a mistyped one most likely means (`report-dir`, `reportdir`, `contracts` → …), if one is close. */
export function didYouMean(key: string, known: Iterable<string>): string | undefined {
  const folded = key.replace(/[-_](\w)/g, (_, letter: string) => letter.toUpperCase()).toLowerCase();
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const d = distance(folded, candidate.toLowerCase());
    if (d <= Math.max(1, Math.floor(candidate.length / 4)) && (!best || d < best.distance)) best = { key: candidate, distance: d };
  }
  return best?.key;
}

/**
 * Refuses a secret written into the file, before anything else reads it: a key that would hold one, or a
 * secret-naming key (`tokenEnv`, …) whose value is not a variable name. The message names the key; the value is
 * never repeated, here or in any later message.
 */
function refuseSecrets(values: Record<string, unknown>, where: string, origin: string): void {
  for (const [key, value] of Object.entries(values)) {
    const spec = OPTIONS.get(key);
    const path = `${where}${key}`;
    if (!spec && SECRET_WORDS.test(key) && !/Env$/.test(key)) {
      const named = OPTIONS.has(`${key}Env`) ? `${where}${key}Env` : 'its …Env key';
      throw usage(origin, `${path} would hold a secret, and a configuration file never does: put the secret in an environment variable and name the variable with ${named}; the value is not shown`);
    }
    if (spec?.secret === 'literal') throw usage(origin, `${path} is a secret and belongs on the command line only; the value is not shown`);
    if (spec?.secret !== 'name') continue;
    const names = Array.isArray(value) ? value : [value];
    if (names.some((name) => typeof name !== 'string' || !ENV_NAME.test(name))) {
      throw usage(origin, `${path} takes the NAME of an environment variable (e.g. GATEWAY_TOKEN), and what it holds is not one: it may be the secret itself, so it is not shown`);
    }
  }
}

function unknownKey(key: string, where: string, origin: string, known: Iterable<string>): HarnessError {
  const near = didYouMean(key, known);
  return usage(origin, `unknown key ${where}${key}${near ? ` (did you mean ${where}${near}?)` : ''}; the keys are the long options of \`contract-gate run\` in camelCase (see docs/configuration.md)`);
}

function schemaError(error: ErrorObject, origin: string): HarnessError {
  const path = error.instancePath.slice(1).split('/').join('.');
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  const message = allowed ? `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : error.message;
  return usage(origin, `${path || 'the configuration'} ${message}`);
}

let validate: ReturnType<ReturnType<typeof createAjv>['compile']> | undefined;

export interface CheckedConfig {
  /** The top level's options, normalized (durations in ms, lists as arrays). */
  readonly options: Readonly<Record<string, unknown>>;
  readonly projects: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

function checkedLevel(values: Record<string, unknown>, where: string, origin: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const spec = OPTIONS.get(key);
    if (!spec) continue;
    try {
      out[key] = normalizeFileValue(spec.type, value, `${where}${key}`);
    } catch (error) {
      if (error instanceof OptionValueError) throw usage(origin, error.message);
      throw error;
    }
  }
  return out;
}

/** Checks what a configuration file holds against the published JSON Schema; every fault names its key. */
export function checkConfig(data: unknown, origin: string): CheckedConfig {
  if (!isJsonObject(data)) throw usage(origin, 'the configuration must be an object (export default defineConfig({ … }))');
  const top: Record<string, unknown> = data;
  refuseSecrets(top, '', origin);
  const projects = top['projects'];
  const projectEntries: Array<[string, unknown]> = isJsonObject(projects) ? Object.entries(projects) : [];
  // The projects that are objects (any other value is the schema's to refuse, below).
  const projectObjects = projectEntries.filter((entry): entry is [string, Record<string, unknown>] => isJsonObject(entry[1]));
  for (const [name, project] of projectObjects) refuseSecrets(project, `projects.${name}.`, origin);
  const known = [...OPTIONS.keys()];
  for (const key of Object.keys(top)) if (!OPTIONS.has(key) && key !== 'projects' && key !== '$schema') throw unknownKey(key, '', origin, [...known, 'projects']);
  for (const [name, project] of projectEntries) {
    if (!PROJECT_NAME.test(name)) throw usage(origin, `projects.${name}: a project name is letters, digits, ".", "_" and "-"`);
    if (!isJsonObject(project)) continue;
    for (const key of Object.keys(project)) if (!OPTIONS.has(key)) throw unknownKey(key, `projects.${name}.`, origin, known);
  }
  // Each option's own reading first: a text it cannot read is refused in the option's words (`budget must be a
  // duration … got "soon"`), where the schema could only say which alternative failed first ("must be integer").
  const options = checkedLevel(top, '', origin);
  const checkedProjects = Object.fromEntries(projectObjects.map(([name, project]) => [name, checkedLevel(project, `projects.${name}.`, origin)]));
  const check = (validate ??= createAjv({ allErrors: false }).compile(configFileSchema()));
  if (!check(data)) throw schemaError(check.errors?.[0] as ErrorObject, origin);
  return { options, projects: checkedProjects };
}
