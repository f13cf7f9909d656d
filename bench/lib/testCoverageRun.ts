import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface Call {
  valid?: boolean;
  error?: unknown;
  requestError?: unknown;
}
interface Rule {
  getCalls(document: unknown, method: unknown): Call[];
}
type RunCoverage = (options: { openrpcDocument: unknown; reporters: unknown[]; rules: Rule[]; transport: 'http'; only?: string[] }) => Promise<Call[]>;

const runCoverage = (require('@open-rpc/test-coverage') as { default: RunCoverage }).default;
const JsonSchemaFakerRule = (require('@open-rpc/test-coverage/build/rules/json-schema-faker-rule') as { default: new (options: { skip: string[]; only: string[]; numCalls: number }) => Rule }).default;
// The document parser test-coverage's own CLI uses, resolved from test-coverage so that the versions match.
const { parseOpenRPCDocument } = createRequire(require.resolve('@open-rpc/test-coverage'))('@open-rpc/schema-utils-js') as {
  parseOpenRPCDocument(document: unknown, options: { validate: boolean; dereference: boolean }): Promise<{ methods: Array<{ name: string; params: unknown[]; examples?: unknown }> }>;
};

/** A reporter that does nothing: the built-in ones print a line per call, which would slow the peer down. */
const SILENT_REPORTER = { onBegin() {}, onTestBegin() {}, onTestEnd() {}, onEnd() {} };

export interface TestCoverageResult {
  calls: number;
  /** Calls whose result validated against the method's result schema. */
  valid: number;
  /** Calls answered with a JSON-RPC error. */
  errors: number;
  elapsedMs: number;
}

/**
 * Drives `@open-rpc/test-coverage` programmatically: its json-schema-faker rule with `callsPerMethod` calls per
 * method, POSTed sequentially to `httpUrl`. Examples are removed from the copy it gets, because its faker rule
 * only generates calls for methods without examples; a method without params gets one rule per call, because
 * the rule makes a single call for those.
 */
export async function runTestCoverage(document: object, httpUrl: string, callsPerMethod: ReadonlyMap<string, number>): Promise<TestCoverageResult> {
  const copy = structuredClone(document) as { servers?: unknown; methods: Array<Record<string, unknown>> };
  copy.servers = [{ name: 'reference gateway', url: httpUrl }];
  for (const method of copy.methods) delete method['examples'];
  const parsed = await parseOpenRPCDocument(copy, { validate: false, dereference: true });
  const rules: Rule[] = [];
  for (const method of parsed.methods) {
    const count = callsPerMethod.get(method.name) ?? 0;
    if (count === 0) continue;
    if (method.params.length > 0) rules.push(new JsonSchemaFakerRule({ skip: [], only: [method.name], numCalls: count }));
    else for (let i = 0; i < count; i++) rules.push(new JsonSchemaFakerRule({ skip: [], only: [method.name], numCalls: 1 }));
  }
  const started = performance.now();
  const calls = await runCoverage({ openrpcDocument: parsed, reporters: [SILENT_REPORTER], rules, transport: 'http', only: [...callsPerMethod.keys()] });
  const elapsedMs = performance.now() - started;
  return { calls: calls.length, valid: calls.filter((c) => c.valid).length, errors: calls.filter((c) => c.error !== undefined).length, elapsedMs };
}
