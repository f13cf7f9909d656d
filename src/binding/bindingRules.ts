import { readFileSync } from 'node:fs';
import { HarnessError, isJsonObject, type JsonObject, type JsonValue } from '../../core/index.js';

/**
 * Identifier binding, as data: how to create the live objects a method refers to (a session, a stored row,
 * a saved spawn tree) and which params fields take their ids. Templates `${resource.field}` name provided values.
 */
export type BindingStep =
  | { call: string; params?: JsonObject; as?: string }
  | { waitEvent: string; session?: string; timeoutMs?: number };

export interface ResourceRule {
  doc?: string;
  uses?: string[];
  steps: BindingStep[];
  provides: Record<string, string>;
}

export interface MethodBinding {
  /** Create new resources for every case (the method consumes them: close, delete, undo, resume…). */
  fresh?: boolean;
  /** Always set these fields. */
  set?: Record<string, JsonValue>;
  /** Replace these fields only when the generated payload has them. */
  bindIfPresent?: Record<string, JsonValue>;
  /** Set these fields only when the generated payload lacks them. */
  fill?: Record<string, JsonValue>;
  /** Remove these fields (values that would only ever derail the call). */
  omit?: string[];
}

export interface BindingRules {
  origin: string;
  resources: Record<string, ResourceRule>;
  methods: Record<string, MethodBinding>;
  /** The binding of every method `methods` does not name (e.g. bind a present `session_id` to a live session). */
  otherMethods?: MethodBinding;
  /** Event names that the events suite drives and observes, with the methods that produce them. */
  eventDrivers: BindingStep[];
}

/** The binding that applies to `method`: its own, else `otherMethods`. */
export function methodBindingOf(rules: BindingRules, method: string): MethodBinding | undefined {
  return Object.hasOwn(rules.methods, method) ? rules.methods[method] : rules.otherMethods;
}

export const NO_BINDINGS: BindingRules = { origin: '(none)', resources: {}, methods: {}, eventDrivers: [] };

function fail(origin: string, where: string, rule: string): never {
  throw new HarnessError('CONTRACT_INVALID', `binding rules ${origin} at ${where}: ${rule}`);
}

function stepOf(origin: string, where: string, raw: unknown): BindingStep {
  if (!isJsonObject(raw)) fail(origin, where, 'a step must be an object');
  if (typeof raw['call'] === 'string') {
    if (raw['params'] !== undefined && !isJsonObject(raw['params'])) fail(origin, `${where}/params`, 'params must be an object');
    return { call: raw['call'], ...(raw['params'] ? { params: raw['params'] as JsonObject } : {}), ...(typeof raw['as'] === 'string' ? { as: raw['as'] } : {}) };
  }
  if (typeof raw['waitEvent'] === 'string') {
    return {
      waitEvent: raw['waitEvent'],
      ...(typeof raw['session'] === 'string' ? { session: raw['session'] } : {}),
      ...(typeof raw['timeoutMs'] === 'number' ? { timeoutMs: raw['timeoutMs'] } : {}),
    };
  }
  return fail(origin, where, 'a step has either "call" or "waitEvent"');
}

/** Parses and checks binding rules; every `uses` must name a resource and the graph must be acyclic. */
export function parseBindingRules(document: unknown, origin: string): BindingRules {
  if (!isJsonObject(document)) fail(origin, '/', 'the file must be a JSON object');
  const resources: Record<string, ResourceRule> = {};
  for (const [name, raw] of Object.entries(isJsonObject(document['resources']) ? document['resources'] : {})) {
    if (!isJsonObject(raw) || !Array.isArray(raw['steps']) || !isJsonObject(raw['provides'])) fail(origin, `/resources/${name}`, 'a resource has steps[] and provides{}');
    resources[name] = {
      ...(typeof raw['doc'] === 'string' ? { doc: raw['doc'] } : {}),
      uses: Array.isArray(raw['uses']) ? raw['uses'].map(String) : [],
      steps: raw['steps'].map((step, index) => stepOf(origin, `/resources/${name}/steps/${index}`, step)),
      provides: Object.fromEntries(Object.entries(raw['provides']).map(([k, v]) => [k, String(v)])),
    };
  }
  for (const [name, rule] of Object.entries(resources)) {
    for (const used of rule.uses ?? []) if (!resources[used]) fail(origin, `/resources/${name}/uses`, `unknown resource "${used}"`);
  }
  const visiting = new Set<string>();
  const visit = (name: string): void => {
    if (visiting.has(name)) fail(origin, `/resources/${name}`, 'resources use each other in a cycle');
    visiting.add(name);
    for (const used of resources[name]?.uses ?? []) visit(used);
    visiting.delete(name);
  };
  Object.keys(resources).forEach(visit);
  const methods: Record<string, MethodBinding> = {};
  for (const [name, raw] of Object.entries(isJsonObject(document['methods']) ? document['methods'] : {})) {
    if (!isJsonObject(raw)) fail(origin, `/methods/${name}`, 'a method binding is an object');
    methods[name] = raw as MethodBinding;
  }
  const other = document['otherMethods'];
  if (other !== undefined && !isJsonObject(other)) fail(origin, '/otherMethods', 'a method binding is an object');
  const drivers = Array.isArray(document['eventDrivers']) ? document['eventDrivers'] : [];
  return { origin, resources, methods, ...(other ? { otherMethods: other as MethodBinding } : {}), eventDrivers: drivers.map((step, index) => stepOf(origin, `/eventDrivers/${index}`, step)) };
}

export function loadBindingRules(path: string): BindingRules {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HarnessError('CONTRACT_NOT_FOUND', `cannot read binding rules ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return parseBindingRules(JSON.parse(text), path);
  } catch (error) {
    if (HarnessError.is(error)) throw error;
    throw new HarnessError('CONTRACT_INVALID', `binding rules ${path} are not JSON: ${(error as Error).message}`, { cause: error });
  }
}

const TEMPLATE_RESOURCE = /\$\{([A-Za-z0-9_]+)\./g;
const templateResources = new Map<string, readonly string[]>();

/** The resource names a template refers to (`${name.path}`), each once; a rule's string templates are scanned once. */
export function resourcesIn(template: unknown): readonly string[] {
  if (typeof template === 'string') {
    let names = templateResources.get(template);
    if (!names) templateResources.set(template, (names = [...new Set(Array.from(template.matchAll(TEMPLATE_RESOURCE), (match) => match[1] as string))]));
    return names;
  }
  if (Array.isArray(template)) return [...new Set(template.flatMap(resourcesIn))];
  return isJsonObject(template) ? [...new Set(Object.values(template).flatMap(resourcesIn))] : [];
}
