/**
 * A small Pydantic-like vocabulary for declaring wire models in TypeScript, so that the contract
 * documents can be rendered the way the Hermes generator renders its Pydantic classes.
 *
 * Mapping to Python:
 *   `class X(Base): a: str`                 → `model('X', Base, { a: req(str) })`
 *   `a: str | None = None`                  → `opt(str)`
 *   `a: str | None` (no default)            → `req(nullable(str))`
 *   `a: bool = False`                       → `dflt(bool, false)`
 *   `a: list[str] = Field(default_factory=list)` → `factory(list(str))`
 *   `a: str = Field(min_length=1)`          → `req(str, { minLength: 1 })`
 *   `model_config = … | {"extra": "allow"}` → `model(..., { extra: 'allow' })`
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type TypeExpr =
  | { readonly kind: 'str' | 'int' | 'float' | 'bool' | 'json' | 'null' | 'datetime' }
  | { readonly kind: 'list'; readonly item: TypeExpr }
  | { readonly kind: 'dict'; readonly value: TypeExpr }
  | { readonly kind: 'union'; readonly options: readonly TypeExpr[] }
  | { readonly kind: 'literal'; readonly values: readonly string[] }
  | { readonly kind: 'ref'; readonly target: Definition };

export interface Constraints {
  readonly minLength?: number;
  readonly minimum?: number;
}

export type FieldDefault =
  | { readonly kind: 'none' }
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'factory' };

export interface FieldDef {
  readonly type: TypeExpr;
  readonly default: FieldDefault;
  readonly constraints: Constraints;
}

/** Pydantic's `extra`: `forbid` renders `additionalProperties: false`, `allow` renders `true`. */
export type Extra = 'forbid' | 'allow';

export interface ModelDef {
  readonly kind: 'model';
  readonly name: string;
  readonly doc: string | undefined;
  readonly extra: Extra;
  /** Flattened like Pydantic: inherited fields first, then the class's own, in declaration order. */
  readonly fields: ReadonlyMap<string, FieldDef>;
}

export interface EnumDef {
  readonly kind: 'enum';
  readonly name: string;
  readonly doc: string | undefined;
  readonly values: readonly string[];
}

/** A named `oneOf` of models (a discriminated union type alias). */
export interface UnionDef {
  readonly kind: 'union';
  readonly name: string;
  readonly doc: string | undefined;
  readonly members: readonly ModelDef[];
}

export type Definition = ModelDef | EnumDef | UnionDef;

/** Anything usable where a type is expected: a type expression or a named definition. */
export type TypeLike = TypeExpr | Definition;

export const str: TypeExpr = { kind: 'str' };
export const int: TypeExpr = { kind: 'int' };
export const float: TypeExpr = { kind: 'float' };
export const bool: TypeExpr = { kind: 'bool' };
/** Pydantic's `JsonValue`: any JSON. */
export const json: TypeExpr = { kind: 'json' };
export const datetime: TypeExpr = { kind: 'datetime' };
const none: TypeExpr = { kind: 'null' };

function isDefinition(type: TypeLike): type is Definition {
  return 'name' in type;
}

export function typeOf(type: TypeLike): TypeExpr {
  return isDefinition(type) ? { kind: 'ref', target: type } : type;
}

export function list(item: TypeLike): TypeExpr {
  return { kind: 'list', item: typeOf(item) };
}

/** `dict[str, X]`. */
export function dict(value: TypeLike): TypeExpr {
  return { kind: 'dict', value: typeOf(value) };
}

export function union(...options: TypeLike[]): TypeExpr {
  return { kind: 'union', options: options.map(typeOf) };
}

/** `X | None`. */
export function nullable(type: TypeLike): TypeExpr {
  return union(type, none);
}

export function literal(...values: string[]): TypeExpr {
  return { kind: 'literal', values };
}

/** A field without a default (listed in `required`). */
export function req(type: TypeLike, constraints: Constraints = {}): FieldDef {
  return { type: typeOf(type), default: { kind: 'none' }, constraints };
}

/** `X | None = None`. */
export function opt(type: TypeLike): FieldDef {
  return { type: nullable(type), default: { kind: 'value', value: null }, constraints: {} };
}

/** `X = value`. */
export function dflt(type: TypeLike, value: JsonValue): FieldDef {
  return { type: typeOf(type), default: { kind: 'value', value }, constraints: {} };
}

/** `X = Field(default_factory=…)`: optional, yet rendered without a `default` key. */
export function factory(type: TypeLike): FieldDef {
  return { type: typeOf(type), default: { kind: 'factory' }, constraints: {} };
}

export interface ModelOptions {
  readonly doc?: string;
  readonly extra?: Extra;
}

/** A root base class (`Params`, `Result`, `OpenModel`…): fields none, policy given. */
export function baseModel(name: string, extra: Extra): ModelDef {
  return { kind: 'model', name, doc: undefined, extra, fields: new Map() };
}

/** `class Name(Base)`: the docstring is not inherited (as in Python), the `extra` policy is. */
export function model(name: string, base: ModelDef, fields: Record<string, FieldDef>, options: ModelOptions = {}): ModelDef {
  const merged = new Map(base.fields);
  for (const [fieldName, field] of Object.entries(fields)) merged.set(fieldName, field);
  return { kind: 'model', name, doc: options.doc, extra: options.extra ?? base.extra, fields: merged };
}

/** `class Name(WireEnum)`. */
export function wireEnum(name: string, values: readonly string[], doc?: string): EnumDef {
  return { kind: 'enum', name, doc, values };
}

export function oneOfModels(name: string, members: readonly ModelDef[], doc?: string): UnionDef {
  return { kind: 'union', name, doc, members };
}

// The base classes of tui_gateway/contracts/base.py and common.py.
export const Params = baseModel('Params', 'forbid');
export const Result = baseModel('Result', 'forbid');
export const Payload = baseModel('Payload', 'forbid');
export const OpenModel = baseModel('OpenModel', 'allow');
export const OpenPayload = baseModel('OpenPayload', 'allow');

export interface MethodDef {
  readonly name: string;
  readonly summary: string;
  readonly params: ModelDef;
  readonly result: ModelDef;
}

export interface EventDef {
  readonly name: string;
  readonly summary: string;
  /** `null` for a payload-less event such as `message.start`. */
  readonly payload: Definition | null;
}

export function method(name: string, params: ModelDef, result: ModelDef, summary: string): MethodDef {
  return { name, summary, params, result };
}

export function event(name: string, payload: Definition | null, summary: string): EventDef {
  return { name, summary, payload };
}

export interface ContractSpec {
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly methods: readonly MethodDef[];
  readonly serverRequests: readonly MethodDef[];
  readonly events: readonly EventDef[];
  /** Definitions rendered even when nothing references them (shared bases worth publishing). */
  readonly extraComponents?: readonly Definition[];
}
