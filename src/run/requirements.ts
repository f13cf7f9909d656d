import { derefSchema } from '../../core/index.js';
import type { Contract } from '../contracts/contractModel.js';

/**
 * What a scenario needs the contract to declare before it can mean anything against a target: the methods it
 * calls, params of those methods it sends, and the events it waits for. A contract that lacks one makes the
 * scenario's cells n/a ("the contract declares no <name>"); a target that lacks a method its contract does
 * declare fails that method's own cells instead.
 */
export interface ScenarioRequirements {
  readonly methods: readonly string[];
  /** `method.param`: a param the scenario sends (by-name descriptor or key of a params object). */
  readonly params?: readonly string[];
  readonly events?: readonly string[];
}

export const requires = (methods: readonly string[], more: Omit<ScenarioRequirements, 'methods'> = {}): ScenarioRequirements => ({ methods, ...more });

/** Adds the needs of one cell to those of its family. */
export function plus(base: ScenarioRequirements, extra: Partial<ScenarioRequirements>): ScenarioRequirements {
  return {
    methods: [...base.methods, ...(extra.methods ?? [])],
    params: [...(base.params ?? []), ...(extra.params ?? [])],
    events: [...(base.events ?? []), ...(extra.events ?? [])],
  };
}

function declaresParam(contracts: readonly Contract[], qualified: string): boolean {
  const cut = qualified.lastIndexOf('.');
  const [methodName, param] = [qualified.slice(0, cut), qualified.slice(cut + 1)];
  return contracts.some((contract) => {
    const method = contract.method(methodName);
    if (!method) return false;
    if (method.descriptors.some((descriptor) => descriptor.name === param)) return true;
    const schema = derefSchema(method.paramsSchema, contract.resolver);
    const properties = typeof schema === 'object' ? (schema.properties as Record<string, unknown> | undefined) : undefined;
    return properties !== undefined && Object.hasOwn(properties, param);
  });
}

/** The first thing the contracts fail to declare, as the name to show, or undefined when they declare everything. */
export function firstMissing(contracts: readonly Contract[], needs: ScenarioRequirements): string | undefined {
  const method = needs.methods.find((name) => !contracts.some((contract) => contract.method(name)));
  if (method) return method;
  const event = (needs.events ?? []).find((name) => !contracts.some((contract) => contract.events.some((declared) => declared.name === name)));
  if (event) return `${event} event`;
  return (needs.params ?? []).find((param) => !declaresParam(contracts, param));
}

export const notDeclaredReason = (name: string): string => `the contract declares no ${name}`;
