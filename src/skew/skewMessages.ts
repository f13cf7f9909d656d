import type { Issue } from './compareSchemas.js';
import type { SkewDirection, SkewFinding, SkewKind, SkewSeverity, SkewSide } from './skewTypes.js';

/** Everything a message needs to know about where an {@link Issue} was found. */
export interface Frame {
  method: string;
  direction: Exclude<SkewDirection, 'method'>;
  /** How messages name each side ("v2", or with its title where both sides carry one version). */
  clientLabel: string;
  serverLabel: string;
  /** How the server answers an unknown key at a dotted path, when its family has its own wording. */
  unknownKeyAnswer: ((path: string) => string) | undefined;
}

/** `2` → `v2`; a version that does not start with a digit is kept as written. */
export function versionLabel(version: string): string {
  return /^\d/.test(version) ? `v${version}` : version;
}

/**
 * How messages name a side: its version, as "clients on v2" say it; where both sides carry the same version, its
 * title too, and where the titles are the same as well, its file name.
 */
export function sideLabel(side: SkewSide, other: SkewSide): string {
  const version = versionLabel(side.version);
  if (version !== versionLabel(other.version)) return version;
  if (side.title !== other.title) return `${side.title} ${version}`;
  return `${version} (${side.path.split(/[\\/]/).pop() ?? side.path})`;
}

export function loc(path: readonly string[]): string {
  return path.join('.');
}

function quoteList(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function typeList(types: readonly string[]): string {
  return types.join(' or ');
}

function acceptedTypes(types: readonly string[]): string {
  return types.length === 0 ? 'accept no value there' : `accept only ${typeList(types)} there`;
}

function invalidParamsAnswer(frame: Frame, path: readonly string[]): string {
  return frame.unknownKeyAnswer ? frame.unknownKeyAnswer(loc(path)) : '-32602 (invalid params)';
}

function where(path: readonly string[]): string {
  return path.length === 0 ? 'as params' : `at "${loc(path)}"`;
}

type Phrase = { kind: SkewKind; severity: SkewSeverity; message: string } | undefined;

function requestPhrase(issue: Issue, frame: Frame): Phrase {
  const clients = `clients on ${frame.clientLabel}`;
  const servers = `servers on ${frame.serverLabel}`;
  const model = (name: string | undefined, path: readonly string[]): string =>
    name ? `the server model ${name}` : path.length > 0 ? `the server's object at "${loc(path)}"` : "the server's params object";
  switch (issue.issue) {
    case 'unknown-key': {
      const parent = issue.path.slice(0, -1);
      const rule = issue.byName
        ? `the server declares no by-name param "${issue.key}" and rejects unknown params`
        : `${model(issue.consumerModel, parent)} is closed (additionalProperties: false)`;
      return {
        kind: 'param-unknown-to-server',
        severity: 'breaking',
        message: `${clients} send "${issue.key}"; ${rule}, so it answers ${invalidParamsAnswer(frame, issue.path)} — upgrade the server first, or make the client omit "${issue.key}" for ${servers}`,
      };
    }
    case 'open-extra':
      return {
        kind: 'param-unknown-to-server',
        severity: issue.map ? 'breaking' : 'warning',
        message: issue.map
          ? `${clients} send a free-form map ${where(issue.path)}; ${model(issue.consumerModel, issue.path)} is closed (additionalProperties: false), so any key in it is answered with ${invalidParamsAnswer(frame, [...issue.path, '<key>'])}`
          : `${clients} may send keys their model${issue.producerModel ? ` ${issue.producerModel}` : ''} does not declare (additionalProperties: true) ${where(issue.path)}; ${model(issue.consumerModel, issue.path)} is closed, so such a key is answered with ${invalidParamsAnswer(frame, [...issue.path, '<key>'])}`,
      };
    case 'ignored-key':
      return {
        kind: 'param-ignored-by-server',
        severity: 'warning',
        message: `${clients} send "${issue.key}"; ${model(issue.consumerModel, issue.path.slice(0, -1))} does not declare it but is open, so ${servers} accept it and ignore it — what the client asks for with it does not happen there`,
      };
    case 'required-absent':
    case 'required-optional':
      return {
        kind: 'param-required-by-server',
        severity: issue.issue === 'required-absent' ? 'breaking' : 'warning',
        message:
          `${model(issue.consumerModel, issue.path.slice(0, -1))} requires "${issue.key}"; ` +
          (issue.issue === 'required-absent'
            ? `${clients} never send it, so ${servers} reject every call (-32602, or the handler's own code in the params-object layout) — make the server default it, or upgrade the clients first`
            : `${clients} may omit it (optional on their side), and such a call is rejected — send it always, or make the server default it`),
      };
    case 'added-optional':
      return {
        kind: 'param-added-optional',
        severity: 'info',
        message: `${servers} accept a new optional "${issue.key}" that ${clients} do not know; old clients keep working`,
      };
    case 'type':
      return {
        kind: 'param-type-narrowed',
        severity: 'breaking',
        message: `${clients} may send ${issue.anyValue ? 'any JSON value' : typeList(issue.produced)} ${where(issue.path)}; ${servers} ${acceptedTypes(issue.accepted)}, so such a call is rejected`,
      };
    case 'enum':
      return {
        kind: 'param-enum-narrowed',
        severity: 'breaking',
        message: `${clients} may send ${issue.unrestricted ? 'any value' : quoteList(issue.values)} ${where(issue.path)}; ${servers} accept only ${quoteList(issue.accepted)}`,
      };
    case 'constraint':
      return {
        kind: 'param-constraint-tightened',
        severity: issue.decidable ? 'breaking' : 'warning',
        message: issue.decidable
          ? `${servers} require ${issue.keyword} ${JSON.stringify(issue.accepted)} ${where(issue.path)}; ${clients} allow ${issue.produced === undefined ? 'values without that bound' : `${issue.keyword} ${JSON.stringify(issue.produced)}`}, so some of their calls are rejected`
          : `${servers} check ${issue.keyword} ${JSON.stringify(issue.accepted)} ${where(issue.path)} where ${clients} declare ${JSON.stringify(issue.produced ?? null)}; whether every client value passes cannot be decided from the documents`,
      };
  }
}

function producedPhrase(issue: Issue, frame: Frame): Phrase {
  const prefix = frame.direction === 'event' ? 'event' : 'result';
  const what = frame.direction === 'event' ? `the "${frame.method}" payload` : 'the result';
  const clients = `clients on ${frame.clientLabel}`;
  const servers = `servers on ${frame.serverLabel}`;
  const model = (name: string | undefined, path: readonly string[]): string =>
    name ? `the client model ${name}` : `the client's object at "${loc(path)}"`;
  switch (issue.issue) {
    case 'unknown-key':
      return {
        kind: `${prefix}-unknown-to-client`,
        severity: 'breaking',
        message: `${servers} send "${issue.key}" in ${what}; ${model(issue.consumerModel, issue.path.slice(0, -1))} is closed (additionalProperties: false), so strict ${clients} reject ${what} — upgrade the clients first, or keep the key out of ${what} for them`,
      };
    case 'open-extra':
      return {
        kind: `${prefix}-unknown-to-client`,
        severity: issue.map ? 'breaking' : 'warning',
        message: `${servers} ${issue.map ? 'send a free-form map' : 'may send undeclared keys (additionalProperties: true)'} ${where(issue.path)}; ${model(issue.consumerModel, issue.path)} is closed (additionalProperties: false), so strict ${clients} reject such ${what}`,
      };
    case 'ignored-key':
      return {
        kind: `${prefix}-key-added-open`,
        severity: 'info',
        message: `${servers} send "${issue.key}" in ${what}; ${model(issue.consumerModel, issue.path.slice(0, -1))} is open, so ${clients} ignore it`,
      };
    case 'required-absent':
    case 'required-optional': {
      const soft = issue.issue === 'required-optional' && issue.producerDefault;
      return {
        kind: `${prefix}-required-missing`,
        severity: soft ? 'warning' : 'breaking',
        message:
          `${model(issue.consumerModel, issue.path.slice(0, -1))} requires "${issue.key}" in ${what}; ` +
          (issue.issue === 'required-absent'
            ? `${servers} never send it`
            : `${servers} may omit it${soft ? ' (optional with a default there, which most servers still write)' : ''}`) +
          ` — make it optional on the client, or always send it`,
      };
    }
    case 'added-optional':
      return undefined;
    case 'type':
      return {
        kind: `${prefix}-type-widened`,
        severity: 'breaking',
        message: `${servers} may send ${issue.anyValue ? 'any JSON value' : typeList(issue.produced)} ${where(issue.path)}; ${clients} ${acceptedTypes(issue.accepted)}, so their decoder rejects ${what}`,
      };
    case 'enum':
      return {
        kind: `${prefix}-enum-widened`,
        severity: 'breaking',
        message: `${servers} may send ${issue.unrestricted ? 'any value' : quoteList(issue.values)} ${where(issue.path)}; ${clients} accept only ${quoteList(issue.accepted)}`,
      };
    case 'constraint':
      return {
        kind: `${prefix}-constraint-loosened`,
        severity: issue.decidable ? 'breaking' : 'warning',
        message: issue.decidable
          ? `${clients} require ${issue.keyword} ${JSON.stringify(issue.accepted)} ${where(issue.path)}; ${servers} allow ${issue.produced === undefined ? 'values without that bound' : `${issue.keyword} ${JSON.stringify(issue.produced)}`}`
          : `${clients} check ${issue.keyword} ${JSON.stringify(issue.accepted)} ${where(issue.path)} where ${servers} declare ${JSON.stringify(issue.produced ?? null)}; whether every server value passes cannot be decided from the documents`,
      };
  }
}

/** Names an issue for its direction; undefined when it does not matter in that direction. */
export function findingOf(issue: Issue, frame: Frame): SkewFinding | undefined {
  const phrase = frame.direction === 'request' ? requestPhrase(issue, frame) : producedPhrase(issue, frame);
  if (phrase === undefined) return undefined;
  return { method: frame.method, path: loc(issue.path), kind: phrase.kind, severity: phrase.severity, message: phrase.message, direction: frame.direction };
}
