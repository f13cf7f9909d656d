import type { EventFilter } from '../client/eventLog.js';
import { describeOutcome, type Exchange, type GatewayEventParams, HarnessError, isJsonObject, type JsonObject, type JsonValue, outcomeOf } from '../../core/index.js';
import { type BindingRules, type BindingStep, type MethodBinding, methodBindingOf, resourcesNamedBy } from './bindingRules.js';

/** What the binder needs from a connection (the WebSocket client; HTTP targets have no events). */
export interface RpcCaller {
  call(method: string, params?: unknown, options?: { timeoutMs?: number }): Promise<Exchange>;
  waitForEvent?(filter: EventFilter, timeoutMs?: number): Promise<GatewayEventParams>;
}

type Scope = Record<string, JsonValue>;

const WHOLE_TEMPLATE = /^\$\{([A-Za-z0-9_]+)\.([A-Za-z0-9_.]+)\}$/;

function lookup(scope: Scope, name: string, path: string): JsonValue | undefined {
  let node: JsonValue | undefined = scope[name];
  for (const key of path.split('.')) {
    if (!isJsonObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** Replaces `${name.path}` templates; a string that is exactly one template keeps the value's JSON type. */
export function resolveTemplates(value: JsonValue, scope: Scope): JsonValue {
  if (typeof value === 'string') {
    const whole = WHOLE_TEMPLATE.exec(value);
    if (whole) return lookup(scope, whole[1] as string, whole[2] as string) ?? null;
    return value.replace(/\$\{([A-Za-z0-9_]+)\.([A-Za-z0-9_.]+)\}/g, (_m, name: string, path: string) => String(lookup(scope, name, path) ?? ''));
  }
  if (Array.isArray(value)) return value.map((item) => resolveTemplates(item, scope));
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveTemplates(v, scope)]));
  return value;
}

/**
 * Creates the live objects named by binding rules on one connection and splices their ids into payloads.
 * Resources are created once per binder; `fork()` gives a binder that creates new ones.
 */
export class Binder {
  private readonly made = new Map<string, Promise<JsonObject>>();
  /** Every setup exchange, in order (attached to failure reports). */
  readonly setup: Exchange[] = [];

  constructor(
    readonly rules: BindingRules,
    private readonly caller: RpcCaller,
    private readonly timeoutMs = 10_000,
  ) {}

  fork(): Binder {
    return new Binder(this.rules, this.caller, this.timeoutMs);
  }

  methodBinding(method: string): MethodBinding | undefined {
    return methodBindingOf(this.rules, method);
  }

  resource(name: string): Promise<JsonObject> {
    let pending = this.made.get(name);
    if (!pending) {
      pending = this.create(name);
      this.made.set(name, pending);
      // A failed resource is not cached: the next case tries again.
      pending.catch(() => this.made.delete(name));
    }
    return pending;
  }

  /** Applies the method's binding to a generated payload (object params only; other shapes are returned unchanged). */
  async bind(method: string, payload: JsonValue): Promise<JsonValue> {
    return (await this.bindTraced(method, payload)).payload;
  }

  /** Like bind, and also says which fields were replaced by which template (replay files re-bind them). */
  async bindTraced(method: string, payload: JsonValue): Promise<{ payload: JsonValue; substitutions: Record<string, string> }> {
    const binding = this.methodBinding(method);
    if (!binding || !isJsonObject(payload)) return { payload, substitutions: {} };
    const scope: Scope = {};
    for (const name of resourcesNamedBy(binding)) scope[name] = await this.resource(name);
    const out: JsonObject = { ...payload };
    const substitutions: Record<string, string> = {};
    const apply = (key: string, template: JsonValue): void => {
      out[key] = resolveTemplates(template, scope);
      substitutions[key] = typeof template === 'string' ? template : JSON.stringify(template);
    };
    for (const key of binding.omit ?? []) delete out[key];
    for (const [key, value] of Object.entries(binding.set ?? {})) apply(key, value);
    for (const [key, value] of Object.entries(binding.bindIfPresent ?? {})) if (key in out && out[key] !== null) apply(key, value);
    for (const [key, value] of Object.entries(binding.fill ?? {})) if (!(key in out) || out[key] === null) apply(key, value);
    return { payload: out, substitutions };
  }

  /** Runs steps (also used by the events suite's drivers); returns the scope of named call results. */
  async run(steps: readonly BindingStep[], scope: Scope = {}): Promise<Scope> {
    for (const step of steps) {
      if ('call' in step) {
        const params = resolveTemplates(step.params ?? {}, scope);
        const exchange = await this.caller.call(step.call, params, { timeoutMs: this.timeoutMs });
        this.setup.push(exchange);
        const outcome = outcomeOf(exchange);
        if (outcome.kind !== 'result') {
          throw new HarnessError('BINDING_FAILED', `setup call ${step.call} ${JSON.stringify(params)} got ${describeOutcome(outcome)}; the target must support it for the methods that depend on it`);
        }
        if (step.as) scope[step.as] = outcome.result;
      } else if (this.caller.waitForEvent) {
        const session = step.session === undefined ? undefined : resolveTemplates(step.session, scope);
        await this.caller.waitForEvent(
          { type: step.waitEvent, ...(typeof session === 'string' ? { sessionId: session } : {}), since: 0 },
          step.timeoutMs ?? this.timeoutMs,
        ).catch((error: unknown) => {
          throw new HarnessError('BINDING_FAILED', `setup waited for ${step.waitEvent}${typeof session === 'string' ? ` of session ${session}` : ''}: ${(error as Error).message}`, { cause: error });
        });
      }
    }
    return scope;
  }

  private async create(name: string): Promise<JsonObject> {
    const rule = this.rules.resources[name];
    if (!rule) throw new HarnessError('BINDING_FAILED', `binding rules ${this.rules.origin} name no resource "${name}"`);
    const scope: Scope = {};
    for (const used of rule.uses ?? []) scope[used] = await this.resource(used);
    await this.run(rule.steps, scope);
    return Object.fromEntries(Object.entries(rule.provides).map(([key, template]) => [key, resolveTemplates(template, scope)]));
  }
}
