import { type JsonSchema } from '../../core/index.js';
import type { Contract, ContractMethod } from '../contracts/index.js';
import { compareSchemas, type CompareContext } from './compareSchemas.js';
import { findingOf, sideLabel, type Frame } from './skewMessages.js';
import type { SkewDirection, SkewFinding, SkewKind, SkewOptions, SkewReport, SkewSeverity, SkewSide } from './skewTypes.js';

/**
 * Static, direction-aware skew analysis of two OpenRPC documents: can clients built from `client` talk to servers
 * built from `server`?
 *
 * The client produces params and consumes results and events; the server consumes params and produces results and
 * events. Each flow is checked from its producer to its consumer, so the verdict is not symmetric. This is where it
 * differs from OpenAPI diff tools such as oasdiff: they judge a change from the old document to the new one and call
 * a new optional request field non-breaking (INFO). That holds for new servers and old clients; for a new client
 * against an old server whose model is closed (`additionalProperties: false`) the same field is rejected (a params
 * model refusing extra inputs answers its own code, elsewhere -32602), which is what this analysis reports.
 *
 * Pure and deterministic: findings are sorted by method, then path.
 */
export function analyseSkew(client: Contract, server: Contract, options: SkewOptions = {}): SkewReport {
  let byServer = reports.get(client);
  if (!byServer) reports.set(client, (byServer = new WeakMap()));
  let analysed = byServer.get(server);
  if (!analysed) byServer.set(server, (analysed = []));
  const { unknownByNameParams, serverCodes } = options;
  const known = analysed.find((entry) => entry.unknownByNameParams === unknownByNameParams && entry.serverCodes === serverCodes);
  if (known) return known.report;
  const report = analyse(client, server, options);
  analysed.push({ unknownByNameParams, serverCodes, report });
  return report;
}

/**
 * The reports made so far, by the very documents and options they were made of. The analysis is pure, and a run
 * asks for the same one several times (a profile's browser lane, topology and skew cells: 30 MB of allocation each
 * for a pair of 278-method documents); documents are never changed once loaded, and no caller changes a report.
 */
const reports = new WeakMap<Contract, WeakMap<Contract, Array<Pick<SkewOptions, 'unknownByNameParams' | 'serverCodes'> & { report: SkewReport }>>>();

function analyse(client: Contract, server: Contract, options: SkewOptions): SkewReport {
  const findings: SkewFinding[] = [];
  const clientMethods = uniqueByName(client.methods);
  const serverMethods = uniqueByName(server.methods);
  for (const method of clientMethods) {
    const served = server.method(method.name);
    if (served === undefined) {
      findings.push(
        methodFinding(method.name, 'method-missing', 'breaking', `clients on ${label(client, server)} call "${method.name}"; servers on ${label(server, client)} do not declare it, so they answer -32601 (unknown method) — upgrade the server first, or stop calling it for that version`),
      );
      continue;
    }
    findings.push(...compareParams(method, served, client, server, options));
    findings.push(...compareResults(method, served, client, server));
  }
  for (const method of serverMethods) {
    if (client.method(method.name) === undefined) {
      findings.push(methodFinding(method.name, 'method-added', 'info', `servers on ${label(server, client)} offer "${method.name}", which clients on ${label(client, server)} do not call`));
    }
  }
  findings.push(...compareEvents(client, server));
  const sorted = sortFindings(findings);
  return { client: sideOf(client), server: sideOf(server), breaking: sorted.some((f) => f.severity === 'breaking'), findings: sorted };
}

export function sideOf(contract: Contract): SkewSide {
  return { title: contract.title, version: contract.version, path: contract.origin };
}

function label(contract: Contract, other: Contract): string {
  return sideLabel(sideOf(contract), sideOf(other));
}

function uniqueByName<T extends { name: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.name) && seen.add(item.name) !== undefined);
}

function methodFinding(method: string, kind: SkewKind, severity: SkewSeverity, message: string, direction: SkewDirection = 'method', path = ''): SkewFinding {
  return { method, path, kind, severity, message, direction };
}

/** The server's own wording of an unknown-key rejection, when its profile has one (`options.serverCodes`). */
function unknownKeyAnswer(method: string, options: SkewOptions): Frame['unknownKeyAnswer'] {
  const codes = options.serverCodes;
  if (!codes?.data.unknownKey?.messages?.length) return codes ? (path) => `${codes.unknownKeyCode} (invalid params at ${path})` : undefined;
  return (path) => {
    const example = codes.unknownKeyMessageExample(method, path, 'first');
    return example.startsWith(`${codes.unknownKeyCode} `) ? example : `${codes.unknownKeyCode} ${JSON.stringify(example)}`;
  };
}

function frameOf(method: string, direction: Frame['direction'], client: Contract, server: Contract, options: SkewOptions): Frame {
  return { method, direction, clientLabel: label(client, server), serverLabel: label(server, client), unknownKeyAnswer: unknownKeyAnswer(method, options) };
}

function positional(method: ContractMethod): boolean {
  return method.paramStructure === 'by-position' && method.descriptors.length > 0;
}

/** The params object a side writes or accepts; a method without params is an empty closed object. */
function objectSchemaOf(method: ContractMethod, role: 'client' | 'server', options: SkewOptions, byNameRoots: WeakSet<object>): JsonSchema {
  if (method.paramStructure === 'object') return method.paramsSchema;
  const properties = Object.fromEntries(method.descriptors.map((d) => [d.name, d.schema]));
  const required = method.descriptors.filter((d) => d.required).map((d) => d.name);
  if (role === 'client') return { type: 'object', properties, required };
  const schema = { type: 'object', properties, required, additionalProperties: options.unknownByNameParams !== 'ignored' ? false : true };
  byNameRoots.add(schema);
  return schema;
}

function compareParams(method: ContractMethod, served: ContractMethod, client: Contract, server: Contract, options: SkewOptions): SkewFinding[] {
  const frame = frameOf(method.name, 'request', client, server, options);
  const byNameRoots = new WeakSet<object>();
  const context: CompareContext = { producer: client.resolver, consumer: server.resolver, byNameRoots };
  const [clientPositional, serverPositional] = [positional(method), positional(served)];
  if (clientPositional || serverPositional) {
    const emptyOther = (clientPositional ? served : method).descriptors.length === 0;
    if (clientPositional === serverPositional || emptyOther) return comparePositions(method, served, frame, context);
    const shape = (m: ContractMethod): string => (positional(m) ? 'an array (by-position)' : 'an object');
    return [
      methodFinding(method.name, 'param-structure-changed', 'breaking', `clients on ${label(client, server)} send params as ${shape(method)}; servers on ${label(server, client)} expect ${shape(served)}, so every call is answered with -32602 (invalid params)`, 'request'),
    ];
  }
  const producer = objectSchemaOf(method, 'client', options, byNameRoots);
  const consumer = objectSchemaOf(served, 'server', options, byNameRoots);
  return compareSchemas(producer, consumer, [], context)
    .map((issue) => findingOf(issue, frame))
    .filter((f): f is SkewFinding => f !== undefined);
}

/** Standard by-position params: descriptor i of the client against descriptor i of the server. */
function comparePositions(method: ContractMethod, served: ContractMethod, frame: Frame, context: CompareContext): SkewFinding[] {
  const findings: SkewFinding[] = [];
  const clients = `clients on ${frame.clientLabel}`;
  const servers = `servers on ${frame.serverLabel}`;
  const count = Math.max(method.descriptors.length, served.descriptors.length);
  for (let index = 0; index < count; index++) {
    const [sent, taken] = [method.descriptors[index], served.descriptors[index]];
    const path = String(index);
    if (sent && taken) {
      for (const issue of compareSchemas(sent.schema, taken.schema, [path], context)) {
        const finding = findingOf(issue, frame);
        if (finding) findings.push(finding);
      }
      if (taken.required && !sent.required) {
        findings.push(methodFinding(method.name, 'param-required-by-server', 'warning', `${servers} require positional param ${index} ("${taken.name}"); ${clients} may omit it ("${sent.name}" is optional on their side), and such a call is rejected with -32602`, 'request', path));
      }
    } else if (sent) {
      findings.push(methodFinding(method.name, 'param-unknown-to-server', 'breaking', `${clients} send positional param ${index} ("${sent.name}"); ${servers} take only ${served.descriptors.length}, so they answer -32602 (invalid params) — upgrade the server first, or stop sending it for that version`, 'request', path));
    } else if (taken?.required) {
      findings.push(methodFinding(method.name, 'param-required-by-server', 'breaking', `${servers} require positional param ${index} ("${taken.name}"); ${clients} never send it, so they reject every call with -32602`, 'request', path));
    } else if (taken) {
      findings.push(methodFinding(method.name, 'param-added-optional', 'info', `${servers} accept a new optional positional param ${index} ("${taken.name}") that ${clients} do not know; old clients keep working`, 'request', path));
    }
  }
  return findings;
}

function compareResults(method: ContractMethod, served: ContractMethod, client: Contract, server: Contract): SkewFinding[] {
  if (method.resultSchema === undefined || served.resultSchema === undefined) return [];
  const frame = frameOf(method.name, 'response', client, server, {});
  return compareSchemas(served.resultSchema, method.resultSchema, ['result'], { producer: server.resolver, consumer: client.resolver })
    .map((issue) => findingOf(issue, frame))
    .filter((f): f is SkewFinding => f !== undefined);
}

function compareEvents(client: Contract, server: Contract): SkewFinding[] {
  const findings: SkewFinding[] = [];
  for (const emitted of uniqueByName(server.events)) {
    const declared = client.event(emitted.name);
    if (declared === undefined) {
      findings.push(methodFinding(emitted.name, 'event-undeclared-by-client', 'warning', `servers on ${label(server, client)} emit "${emitted.name}", which clients on ${label(client, server)} do not declare; a client that rejects unknown events fails on it, a tolerant one drops it`, 'event'));
      continue;
    }
    if (emitted.payloadSchema === undefined || declared.payloadSchema === undefined) continue;
    const frame = frameOf(emitted.name, 'event', client, server, {});
    for (const issue of compareSchemas(emitted.payloadSchema, declared.payloadSchema, ['payload'], { producer: server.resolver, consumer: client.resolver })) {
      const finding = findingOf(issue, frame);
      if (finding) findings.push(finding);
    }
  }
  for (const declared of uniqueByName(client.events)) {
    if (server.event(declared.name) === undefined) {
      findings.push(methodFinding(declared.name, 'event-not-emitted', 'info', `clients on ${label(client, server)} declare "${declared.name}"; servers on ${label(server, client)} never emit it`, 'event'));
    }
  }
  return findings;
}

const DIRECTION_ORDER: Record<SkewDirection, number> = { method: 0, request: 1, response: 2, event: 3 };

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorted by method, then path (then direction, kind and message, so that the order never depends on input order). */
export function sortFindings(findings: readonly SkewFinding[]): SkewFinding[] {
  const seen = new Set<string>();
  return findings
    .filter((f) => {
      const key = JSON.stringify([f.method, f.path, f.kind, f.direction, f.message]);
      return !seen.has(key) && seen.add(key) !== undefined;
    })
    .sort(
      (a, b) =>
        byCodeUnits(a.method, b.method) ||
        byCodeUnits(a.path, b.path) ||
        DIRECTION_ORDER[a.direction] - DIRECTION_ORDER[b.direction] ||
        byCodeUnits(a.kind, b.kind) ||
        byCodeUnits(a.message, b.message),
    );
}
