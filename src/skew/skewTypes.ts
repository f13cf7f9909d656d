import type { CodeProfile } from '../checks/codeProfile.js';
/** Public shapes of the static skew analysis (the JSON output is exactly {@link SkewReport}). */

export type SkewSeverity = 'breaking' | 'warning' | 'info';

/**
 * Which flow a finding concerns: `request` = params (client produces, server consumes), `response` = results and
 * `event` = notifications (server produces, client consumes), `method` = the method set itself.
 */
export type SkewDirection = 'request' | 'response' | 'event' | 'method';

/** Every finding kind; the ids are public (reports, baselines), so they only ever get added. */
export const SKEW_KINDS = [
  'method-missing',
  'method-added',
  'param-structure-changed',
  'param-unknown-to-server',
  'param-ignored-by-server',
  'param-required-by-server',
  'param-added-optional',
  'param-type-narrowed',
  'param-enum-narrowed',
  'param-constraint-tightened',
  'result-unknown-to-client',
  'result-key-added-open',
  'result-required-missing',
  'result-type-widened',
  'result-enum-widened',
  'result-constraint-loosened',
  'event-undeclared-by-client',
  'event-not-emitted',
  'event-unknown-to-client',
  'event-key-added-open',
  'event-required-missing',
  'event-type-widened',
  'event-enum-widened',
  'event-constraint-loosened',
] as const;

export type SkewKind = (typeof SKEW_KINDS)[number];

export interface SkewFinding {
  /** Method name, or the event name for `event` findings. */
  method: string;
  /** Dotted Pydantic-style location: `cwd_explicit`, `messages.0.foo`, `result.info.tools`, `payload.text`; `` for the whole method. */
  path: string;
  kind: SkewKind;
  severity: SkewSeverity;
  message: string;
  direction: SkewDirection;
}

export interface SkewSide {
  title: string;
  version: string;
  path: string;
}

export interface SkewReport {
  client: SkewSide;
  server: SkewSide;
  breaking: boolean;
  findings: SkewFinding[];
}

export interface SkewOptions {
  /**
   * What a server does with a by-name param it does not declare. The document cannot say (the top level of by-name
   * params has no `additionalProperties`); most JSON-RPC frameworks map by-name params to named arguments and answer
   * -32602 for an unexpected one, hence the default `rejected`. `ignored` turns those findings into warnings.
   * The params-object layout (one descriptor whose schema is the whole params object) always follows its schema.
   */
  unknownByNameParams?: 'rejected' | 'ignored';
  /**
   * How the server's family words a refused unknown key (its profile's codes), for the messages; absent: plain
   * JSON-RPC's -32602.
   */
  serverCodes?: Pick<CodeProfile, 'data' | 'unknownKeyCode' | 'unknownKeyMessageExample'>;
}

export interface SkewCounts {
  breaking: number;
  warning: number;
  info: number;
}

export interface SkewMatrixCell {
  /** Index into {@link SkewMatrix.contracts} of the client (the row). */
  client: number;
  /** Index into {@link SkewMatrix.contracts} of the server (the column). */
  server: number;
  breaking: boolean;
  counts: SkewCounts;
  findings: SkewFinding[];
}

export interface SkewMatrix {
  contracts: SkewSide[];
  /** Every ordered pair, row-major: client 0 × every server, then client 1 × every server, … */
  cells: SkewMatrixCell[];
  breaking: boolean;
}

export type SkewFormat = 'text' | 'md' | 'json';
