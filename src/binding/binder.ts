import type { EventFilter } from '../client/eventLog.js';
import { causedByNoEvents } from '../client/noEvents.js';
import { describeOutcome, type Exchange, type WireEvent, HarnessError, isJsonObject, type JsonObject, type JsonValue, outcomeOf } from '../../core/index.js';
import { type BindingRules, type BindingStep, type MethodBinding, methodBindingOf, resourcesIn } from './bindingRules.js';

/** What the binder needs from a connection (the WebSocket client; HTTP targets have no events). */
export interface RpcCaller {
  /**
   * `paramsText` is `JSON.stringify(params)` when the caller has it; callers pass it on. `unansweredPasses`: a missing
   * answer breaks no rule of the check that sends this request (a negative case, which only a success breaks).
   */
  call(method: string, params?: unknown, options?: { timeoutMs?: number; paramsText?: string; unansweredPasses?: boolean }): Promise<Exchange>;
  waitForEvent?(filter: EventFilter, timeoutMs?: number): Promise<WireEvent>;
}

type Scope = Record<string, JsonValue>;

const WHOLE_TEMPLATE = /^\$\{([A-Za-z0-9_]+)\.([A-Za-z0-9_.]+)\}$/;
const ANY_TEMPLATE = /\$\{([A-Za-z0-9_]+)\.([A-Za-z0-9_.]+)\}/g;

/** A template string taken apart once: a whole `${name.path}`, or literal text with templates in it. */
type CompiledTemplate = { whole: { name: string; path: string[] } } | { embedded: boolean };

const compiledTemplates = new Map<string, CompiledTemplate>();

function compileTemplate(value: string): CompiledTemplate {
  let compiled = compiledTemplates.get(value);
  if (!compiled) {
    const whole = WHOLE_TEMPLATE.exec(value);
    const embedded = value.includes('${');
    compiled = whole ? { whole: { name: whole[1] as string, path: (whole[2] as string).split('.') } } : { embedded };
    // Templates come from binding rules; other strings (generated ones) are not kept, so the cache stays small.
    if (embedded) compiledTemplates.set(value, compiled);
  }
  return compiled;
}

function lookup(scope: Scope, name: string, path: readonly string[]): JsonValue | undefined {
  let node: JsonValue | undefined = scope[name];
  for (const key of path) {
    if (!isJsonObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** Replaces `${name.path}` templates; a string that is exactly one template keeps the value's JSON type. */
export function resolveTemplates(value: JsonValue, scope: Scope): JsonValue {
  if (typeof value === 'string') {
    const compiled = compileTemplate(value);
    if ('whole' in compiled) return lookup(scope, compiled.whole.name, compiled.whole.path) ?? null;
    if (!compiled.embedded) return value;
    return value.replace(ANY_TEMPLATE, (_m, name: string, path: string) => String(lookup(scope, name, path.split('.')) ?? ''));
  }
  if (Array.isArray(value)) return value.map((item) => resolveTemplates(item, scope));
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveTemplates(v, scope)]));
  return value;
}

export interface BoundPayload {
  payload: JsonValue;
  /** Fields whose values came from templates, with the template. */
  substitutions: Record<string, string>;
}

/** The fields a binding sets on one payload, each with its template, in the order they are applied. */
interface BindingPlan {
  /** The payload without the omitted fields. */
  readonly base: JsonObject;
  readonly fields: ReadonlyArray<readonly [string, JsonValue]>;
}

/**
 * What `binding` does to `payload`: `set` fields always, a `bindIfPresent` field when the payload carries it (not
 * null), a `fill` field when it does not. A field an earlier part binds counts as carried. Only the live objects these
 * fields name are needed: a payload that carries none of the `bindIfPresent` fields needs none of theirs.
 */
function planBinding(binding: MethodBinding, payload: JsonObject): BindingPlan {
  const base: JsonObject = { ...payload };
  for (const key of binding.omit ?? []) delete base[key];
  const fields: Array<readonly [string, JsonValue]> = [];
  const bound = new Set<string>();
  const carried = (key: string): boolean => bound.has(key) || (key in base && base[key] !== null);
  const add = (key: string, template: JsonValue): void => {
    fields.push([key, template]);
    bound.add(key);
  };
  for (const [key, template] of Object.entries(binding.set ?? {})) add(key, template);
  for (const [key, template] of Object.entries(binding.bindIfPresent ?? {})) if (carried(key)) add(key, template);
  for (const [key, template] of Object.entries(binding.fill ?? {})) if (!carried(key)) add(key, template);
  return { base, fields };
}

/** The resources a plan's templates name, each once. */
function resourcesOf(plan: BindingPlan): readonly string[] {
  return plan.fields.length === 1 ? resourcesIn((plan.fields[0] as readonly [string, JsonValue])[1]) : resourcesIn(plan.fields.map(([, template]) => template));
}

function applyBinding(plan: BindingPlan, scope: Scope): BoundPayload {
  const out: JsonObject = { ...plan.base };
  const substitutions: Record<string, string> = {};
  for (const [key, template] of plan.fields) {
    out[key] = resolveTemplates(template, scope);
    substitutions[key] = typeof template === 'string' ? template : JSON.stringify(template);
  }
  return { payload: out, substitutions };
}

/**
 * Creates the live objects named by binding rules on one connection and splices their ids into payloads.
 * Resources are created once per binder; `fork()` gives a binder that creates new ones.
 */
export class Binder {
  private readonly made = new Map<string, Promise<JsonObject>>();
  /** Resources already created, so that binding a case to them needs no await. */
  private readonly ready = new Map<string, JsonObject>();
  /** Every setup exchange, in order (attached to failure reports). */
  readonly setup: Exchange[] = [];

  /**
   * @param impossible resources that cannot be made over this caller at all (a step waits for an event on a connection
   * that delivers none), with the error that said so: shared with forks, so that no case tries them again (each try
   * would make its setup calls on the target for nothing)
   */
  constructor(
    readonly rules: BindingRules,
    private readonly caller: RpcCaller,
    private readonly timeoutMs = 10_000,
    private readonly impossible = new Map<string, unknown>(),
  ) {}

  fork(): Binder {
    return new Binder(this.rules, this.caller, this.timeoutMs, this.impossible);
  }

  methodBinding(method: string): MethodBinding | undefined {
    return methodBindingOf(this.rules, method);
  }

  resource(name: string): Promise<JsonObject> {
    if (this.impossible.has(name)) return Promise.reject(this.impossible.get(name));
    let pending = this.made.get(name);
    if (!pending) {
      pending = this.create(name);
      this.made.set(name, pending);
      // A failed resource is not cached: the next case tries again, unless no try can succeed.
      pending.then(
        (made) => this.ready.set(name, made),
        (error: unknown) => {
          this.made.delete(name);
          if (causedByNoEvents(error)) this.impossible.set(name, error);
        },
      );
    }
    return pending;
  }

  /** Applies the method's binding to a generated payload (object params only; other shapes are returned unchanged). */
  async bind(method: string, payload: JsonValue): Promise<JsonValue> {
    return (await this.bindTraced(method, payload)).payload;
  }

  /** Like bind, and also says which fields were replaced by which template (replay files re-bind them). */
  bindTraced(method: string, payload: JsonValue): Promise<BoundPayload> {
    const binding = this.methodBinding(method);
    if (!binding || !isJsonObject(payload)) return Promise.resolve({ payload, substitutions: {} });
    const plan = planBinding(binding, payload);
    const names = resourcesOf(plan);
    // Calls are sequential: once the live objects exist, a case is bound without a round of awaits.
    if (names.every((name) => this.ready.has(name))) {
      const scope: Scope = {};
      for (const name of names) scope[name] = this.ready.get(name) as JsonObject;
      return Promise.resolve(applyBinding(plan, scope));
    }
    return this.bindAfterCreating(plan, names);
  }

  private async bindAfterCreating(plan: BindingPlan, names: readonly string[]): Promise<BoundPayload> {
    const scope: Scope = {};
    for (const name of names) scope[name] = await this.resource(name);
    return applyBinding(plan, scope);
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
