import { canonicalJson, jsonTypeOf, type JsonSchema, type JsonSchemaObject, type SchemaResolver } from '../../core/index.js';
import {
  ALL_TYPES,
  branchesOf,
  isUnconstrained,
  lowerBound,
  typeAccepts,
  upperBound,
  valuesOf,
  type Branch,
  type JsonType,
} from './schemaShape.js';

/**
 * What one directional comparison found, before it is named for a direction. The producer is the side that writes
 * the value (the client for params, the server for results and events), the consumer the side that validates it.
 */
export type Issue =
  | { issue: 'unknown-key'; path: string[]; key: string; consumerModel: string | undefined; byName: boolean }
  | { issue: 'open-extra'; path: string[]; map: boolean; producerModel: string | undefined; consumerModel: string | undefined }
  | { issue: 'ignored-key'; path: string[]; key: string; consumerModel: string | undefined }
  | { issue: 'required-absent' | 'required-optional'; path: string[]; key: string; consumerModel: string | undefined; producerDefault: boolean }
  | { issue: 'added-optional'; path: string[]; key: string; consumerModel: string | undefined }
  | { issue: 'type'; path: string[]; produced: JsonType[]; anyValue: boolean; accepted: JsonType[] }
  | { issue: 'enum'; path: string[]; values: unknown[]; unrestricted: boolean; accepted: unknown[] }
  | { issue: 'constraint'; path: string[]; keyword: string; produced: unknown; accepted: unknown; decidable: boolean };

export interface CompareContext {
  producer: SchemaResolver;
  consumer: SchemaResolver;
  /** Synthesized by-name params objects: an unknown key there is an unknown by-name param. */
  byNameRoots?: WeakSet<object>;
}

interface State extends CompareContext {
  active: Set<string>;
  ids: Map<object, number>;
}

function idOf(state: State, node: object): number {
  const known = state.ids.get(node);
  if (known !== undefined) return known;
  const id = state.ids.size + 1;
  state.ids.set(node, id);
  return id;
}

/** Every value `producer` allows must pass `consumer`; each way it may not becomes an {@link Issue}. Pure. */
export function compareSchemas(producer: JsonSchema, consumer: JsonSchema, path: string[], context: CompareContext): Issue[] {
  const state: State = { ...context, active: new Set(), ids: new Map() };
  const out: Issue[] = [];
  compareValue(producer, consumer, path, state, out);
  const seen = new Set<string>();
  return out.filter((issue) => {
    const key = canonicalJson(issue);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Issues that make a branch pairing worse; used to pick the consumer branch a producer branch matches best. */
function cost(issues: Issue[]): number {
  return issues.reduce((sum, issue) => sum + (issue.issue === 'added-optional' || issue.issue === 'ignored-key' ? 1 : 100), 0);
}

function compareValue(producer: JsonSchema, consumer: JsonSchema, path: string[], state: State, out: Issue[]): void {
  const consumerBranches = branchesOf(consumer, state.consumer);
  if (consumerBranches.some((branch) => isUnconstrained(branch.node))) return;
  const producerBranches = branchesOf(producer, state.producer);
  const missing = new Set<JsonType>();
  let anyValue = false;
  for (const branch of producerBranches) {
    // A producer that may write any value is reported once, by the types the consumer refuses; comparing its
    // (absent) structure against every consumer branch would only repeat that.
    const unconstrained = isUnconstrained(branch.node);
    for (const type of branch.types) {
      const candidates = consumerBranches.filter((candidate) => typeAccepts(candidate.types, type));
      if (candidates.length === 0) {
        missing.add(type);
        anyValue ||= branch.types.size === ALL_TYPES.length;
      } else if (!unconstrained) {
        out.push(...bestMatch(branch, candidates, type, path, state));
      }
    }
  }
  if (missing.size > 0) {
    const accepted = [...new Set(consumerBranches.flatMap((branch) => [...branch.types]))].sort();
    out.push({ issue: 'type', path, produced: [...missing].sort(), anyValue, accepted });
  }
}

function bestMatch(branch: Branch, candidates: Branch[], type: JsonType, path: string[], state: State): Issue[] {
  let best: Issue[] | undefined;
  for (const candidate of candidates) {
    const issues: Issue[] = [];
    compareBranch(branch, candidate, type, path, state, issues);
    if (best === undefined || cost(issues) < cost(best)) best = issues;
    if (cost(best) === 0) break;
  }
  return best ?? [];
}

function compareBranch(producer: Branch, consumer: Branch, type: JsonType, path: string[], state: State, out: Issue[]): void {
  const key = `${idOf(state, producer.node)}:${idOf(state, consumer.node)}:${type}`;
  // A pair already being compared further up is assumed compatible: this is what makes recursive models terminate.
  if (state.active.has(key)) return;
  state.active.add(key);
  try {
    compareValues(producer.node, consumer.node, type, path, out);
    if (type === 'integer' || type === 'number') compareNumbers(producer.node, consumer.node, path, out);
    if (type === 'string') compareStrings(producer.node, consumer.node, path, out);
    if (type === 'array') compareArrays(producer.node, consumer.node, path, state, out);
    if (type === 'object') compareObjects(producer, consumer, path, state, out);
  } finally {
    state.active.delete(key);
  }
}

function compareValues(producer: JsonSchemaObject, consumer: JsonSchemaObject, type: JsonType, path: string[], out: Issue[]): void {
  const ofType = (value: unknown): boolean => typeAccepts(new Set([type]), jsonTypeOf(value));
  const accepted = valuesOf(consumer)?.filter(ofType);
  if (accepted === undefined) return;
  const produced = valuesOf(producer)?.filter(ofType);
  if (produced === undefined) {
    out.push({ issue: 'enum', path, values: [], unrestricted: true, accepted });
    return;
  }
  const acceptedKeys = new Set(accepted.map(canonicalJson));
  const rejected = produced.filter((value) => !acceptedKeys.has(canonicalJson(value)));
  if (rejected.length > 0) out.push({ issue: 'enum', path, values: rejected, unrestricted: false, accepted });
}

function constraint(out: Issue[], path: string[], keyword: string, produced: unknown, accepted: unknown, decidable = true): void {
  out.push({ issue: 'constraint', path, keyword, produced, accepted, decidable });
}

function compareNumbers(producer: JsonSchemaObject, consumer: JsonSchemaObject, path: string[], out: Issue[]): void {
  if (valuesOf(producer) !== undefined) return;
  const [pLow, cLow] = [lowerBound(producer), lowerBound(consumer)];
  if (cLow && (!pLow || cLow.value > pLow.value || (cLow.value === pLow.value && cLow.exclusive && !pLow.exclusive))) {
    constraint(out, path, cLow.exclusive ? 'exclusiveMinimum' : 'minimum', pLow?.value, cLow.value);
  }
  const [pHigh, cHigh] = [upperBound(producer), upperBound(consumer)];
  if (cHigh && (!pHigh || cHigh.value < pHigh.value || (cHigh.value === pHigh.value && cHigh.exclusive && !pHigh.exclusive))) {
    constraint(out, path, cHigh.exclusive ? 'exclusiveMaximum' : 'maximum', pHigh?.value, cHigh.value);
  }
  const [pStep, cStep] = [producer.multipleOf, consumer.multipleOf];
  if (typeof cStep === 'number' && (typeof pStep !== 'number' || pStep % cStep !== 0)) constraint(out, path, 'multipleOf', pStep, cStep);
}

function compareCounts(producer: JsonSchemaObject, consumer: JsonSchemaObject, min: string, max: string, path: string[], out: Issue[]): void {
  const [pMin, cMin, pMax, cMax] = [producer[min], consumer[min], producer[max], consumer[max]];
  if (typeof cMin === 'number' && cMin > 0 && !(typeof pMin === 'number' && pMin >= cMin)) constraint(out, path, min, pMin, cMin);
  if (typeof cMax === 'number' && !(typeof pMax === 'number' && pMax <= cMax)) constraint(out, path, max, pMax, cMax);
}

function compareStrings(producer: JsonSchemaObject, consumer: JsonSchemaObject, path: string[], out: Issue[]): void {
  if (valuesOf(producer) !== undefined) return;
  compareCounts(producer, consumer, 'minLength', 'maxLength', path, out);
  if (typeof consumer.pattern === 'string' && producer.pattern !== consumer.pattern) {
    // Without a producer pattern the consumer's is a plain tightening; two different patterns cannot be compared here.
    constraint(out, path, 'pattern', producer.pattern, consumer.pattern, producer.pattern === undefined);
  }
  if (typeof consumer.format === 'string' && producer.format !== consumer.format) {
    constraint(out, path, 'format', producer.format, consumer.format, false);
  }
}

function compareArrays(producer: JsonSchemaObject, consumer: JsonSchemaObject, path: string[], state: State, out: Issue[]): void {
  compareCounts(producer, consumer, 'minItems', 'maxItems', path, out);
  if (consumer.uniqueItems === true && producer.uniqueItems !== true) constraint(out, path, 'uniqueItems', producer.uniqueItems, true);
  const tupleOf = (node: JsonSchemaObject): JsonSchema[] | undefined => node.prefixItems ?? (Array.isArray(node.items) ? node.items : undefined);
  const restOf = (node: JsonSchemaObject): JsonSchema | undefined => {
    if (node.prefixItems !== undefined) return Array.isArray(node.items) ? undefined : node.items;
    if (Array.isArray(node.items)) return node['additionalItems'] as JsonSchema | undefined;
    return node.items;
  };
  const [pTuple, cTuple, pRest, cRest] = [tupleOf(producer), tupleOf(consumer), restOf(producer), restOf(consumer)];
  const positions = Math.max(pTuple?.length ?? 0, cTuple?.length ?? 0);
  for (let index = 0; index < positions; index++) {
    if (typeof producer.maxItems === 'number' && index >= producer.maxItems) break;
    const produced = pTuple?.[index] ?? pRest ?? true;
    const accepted = cTuple?.[index] ?? cRest ?? true;
    compareValue(produced, accepted, [...path, String(index)], state, out);
  }
  if (pRest !== undefined || pTuple === undefined) {
    compareValue(pRest ?? true, cRest ?? true, [...path, String(positions)], state, out);
  }
}

function matchingPattern(consumer: JsonSchemaObject, key: string): JsonSchema | undefined {
  for (const [pattern, schema] of Object.entries(consumer.patternProperties ?? {})) {
    try {
      if (new RegExp(pattern, 'u').test(key)) return schema;
    } catch {
      continue;
    }
  }
  return undefined;
}

function compareObjects(producerBranch: Branch, consumerBranch: Branch, path: string[], state: State, out: Issue[]): void {
  const [producer, consumer] = [producerBranch.node, consumerBranch.node];
  const consumerModel = consumerBranch.model;
  compareCounts(producer, consumer, 'minProperties', 'maxProperties', path, out);
  const pProps = producer.properties ?? {};
  const cProps = consumer.properties ?? {};
  const pRequired = new Set(producer.required ?? []);
  const cRequired = new Set(consumer.required ?? []);
  const cExtra = consumer.additionalProperties;
  const consumerClosed = cExtra === false;
  for (const [key, schema] of Object.entries(pProps)) {
    const accepted = Object.hasOwn(cProps, key) ? cProps[key] : matchingPattern(consumer, key);
    const at = [...path, key];
    if (accepted !== undefined) compareValue(schema, accepted, at, state, out);
    else if (consumerClosed) out.push({ issue: 'unknown-key', path: at, key, consumerModel, byName: state.byNameRoots?.has(consumer) ?? false });
    else if (cExtra !== undefined && cExtra !== true) compareValue(schema, cExtra, at, state, out);
    else out.push({ issue: 'ignored-key', path: at, key, consumerModel });
  }
  for (const key of cRequired) {
    if (!Object.hasOwn(pProps, key)) {
      out.push({ issue: 'required-absent', path: [...path, key], key, consumerModel, producerDefault: false });
    } else if (!pRequired.has(key)) {
      const producerDefault = typeof pProps[key] === 'object' && (pProps[key] as JsonSchemaObject).default !== undefined;
      out.push({ issue: 'required-optional', path: [...path, key], key, consumerModel, producerDefault });
    }
  }
  for (const key of Object.keys(cProps)) {
    if (!Object.hasOwn(pProps, key) && !cRequired.has(key)) out.push({ issue: 'added-optional', path: [...path, key], key, consumerModel });
  }
  const pExtra = producer.additionalProperties;
  if (pExtra === undefined || pExtra === false) return;
  // The producer declares undeclared keys: a free map (no properties) certainly sends some, an open model may.
  const map = Object.keys(pProps).length === 0;
  if (consumerClosed && Object.keys(consumer.patternProperties ?? {}).length === 0) {
    out.push({ issue: 'open-extra', path, map, producerModel: producerBranch.model, consumerModel });
  } else if (cExtra !== undefined && cExtra !== true && cExtra !== false) {
    compareValue(pExtra, cExtra, [...path, '*'], state, out);
  }
}
