import { expect, test } from '../unit/helpers/test.js';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { parseRunOptions, runConfigFor } from '../../cli/commands/run.js';
import { runInProcess } from '../../fixtures/inProcessRun.js';
import { CHROMIUM_PATH } from '../../profiles/hermes/cells/browserLane.js';
import { allChecks } from '../../profiles/index.js';
import { isEvidenced } from '../../src/checks/evidence.js';
import type { Matrix, MatrixCell } from '../../src/report/matrixTypes.js';
import { FAULT_CASES } from '../selftest/faultExpectations.js';
import { scratchDir } from '../unit/helpers/scratchDir.js';

/*
 * No verdict without evidence, over the whole catalogue. Every check id is listed in AUDIT with a run whose target
 * cannot give it what it judges (no auth, no sessions, no events, no server requests, only errors, only successes,
 * silence): there the check must be n/a (or, where its precondition is frames the harness sends itself, never pass).
 * Against the clean reference gateway every check passes somewhere with evidence, and every one of them fails under
 * a fault of the catalogue (test/selftest runs those). No run may count a pass that observed nothing. The clean run is
 * also the self-test's control: the full document against the clean gateway fails no cell.
 */

type Frame = Record<string, unknown>;
/** How a scripted server answers one request object; undefined: it never answers. */
type Answer = (request: Frame) => Frame | undefined;

const CONTRACT = {
  openrpc: '1.2.6',
  info: { title: 'Hollow target', version: '1.0.0' },
  methods: [
    {
      name: 'calc.add',
      paramStructure: 'by-name',
      params: [
        { name: 'a', required: true, schema: { type: 'integer', minimum: 0, maximum: 9 } },
        { name: 'b', required: true, schema: { type: 'integer', minimum: 0, maximum: 9 } },
      ],
      result: { name: 'sum', schema: { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'] } },
    },
    { name: 'note.any', paramStructure: 'by-name', params: [{ name: 'value', schema: {} }], result: { name: 'ok', schema: { type: 'object' } } },
  ],
  'x-notifications': [{ name: 'calc.progress', params: [{ name: 'payload', schema: { type: 'object', properties: { done: { type: 'integer' } } } }] }],
  'x-server-requests': [{ name: 'approval.request', paramStructure: 'by-name', params: [{ name: 'question', required: true, schema: { type: 'string' } }], result: { name: 'answer', schema: { type: 'object' } } }],
};

const onlyErrors: Answer = (request) => ({ jsonrpc: '2.0', id: request['id'] ?? null, error: { code: -32602, message: 'invalid params' } });
const onlySuccesses: Answer = (request) => ({ jsonrpc: '2.0', id: request['id'] ?? null, result: { sum: 1 } });
const silent: Answer = () => undefined;

async function startScripted(answer: Answer): Promise<{ url: string; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 64 * 1024 * 1024 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString());
      } catch {
        parsed = { id: null };
      }
      for (const request of Array.isArray(parsed) ? parsed : [parsed]) {
        if (typeof request !== 'object' || request === null) continue;
        const reply = answer(request as Frame);
        if (reply) socket.send(JSON.stringify(reply));
      }
    });
  });
  const { port } = wss.address() as AddressInfo;
  return { url: `ws://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => wss.close(() => resolve())) };
}

type RunName = 'clean' | 'gated' | 'clientContract' | 'noSessions' | 'onlyErrors' | 'onlySuccesses' | 'silent';
const SCRIPTED: Partial<Record<RunName, Answer>> = { onlyErrors, onlySuccesses, silent };
const BASE = ['--seed', '1', '--runs', '3', '--workers', '1'];
const ARGS: Record<RunName, string[]> = {
  clean: [],
  gated: ['--embedded-auth', 'gated', '--grep', '@area:auth'],
  clientContract: ['--client-contract', 'profiles/hermes/contracts/session-lifecycle.openrpc.json', '--grep', '@check:skew\\.client-contract'],
  // The hermes profile on the hollow document (no session), embedded: its scenarios, sequences, server-request turns
  // and auth probes have nothing to drive.
  noSessions: ['--profile', 'hermes', '--auth-checks'],
  onlyErrors: [],
  onlySuccesses: [],
  silent: ['--request-timeout', '300'],
};

interface Expectation {
  readonly run: RunName;
  /** `n/a`: every cell of the check is n/a there. `not-pass`: the check judges frames the harness sends itself, so its precondition always occurs; against that target it must not pass. */
  readonly expect: 'n/a' | 'not-pass';
}

const na = (run: RunName): Expectation => ({ run, expect: 'n/a' });
const notPass = (run: RunName): Expectation => ({ run, expect: 'not-pass' });

const HERMES_SCENARIOS = allChecks().ids.filter((id) => id.startsWith('scenario.') || id.startsWith('stateful.') || id.startsWith('auth.') || id === 'skew.predicted-observed');

/** Every check of the catalogue, with the target where what it judges cannot occur. */
const AUDIT: Record<string, Expectation> = {
  'envelope.jsonrpc-version': na('silent'),
  'envelope.id-echo': na('silent'),
  'envelope.result-xor-error': na('silent'),
  'envelope.error-shape': na('onlySuccesses'),
  'envelope.error-hygiene': na('onlySuccesses'),
  'envelope.parse-error': notPass('silent'),
  'envelope.unknown-method': notPass('silent'),
  'envelope.invalid-request': notPass('silent'),
  'envelope.id-types': notPass('silent'),
  'envelope.batch': notPass('silent'),
  'envelope.oversized-frame': notPass('silent'),
  'params.valid-accepted': notPass('silent'),
  'params.unknown-key-rejected': na('onlyErrors'),
  'params.unknown-key-tolerated': na('silent'),
  'params.invalid-not-accepted': notPass('onlySuccesses'),
  'result.schema': na('onlyErrors'),
  'event.envelope': na('onlyErrors'),
  'event.payload-schema': na('onlyErrors'),
  'event.seq-monotonic': na('onlyErrors'),
  'skew.client-contract': notPass('silent'),
  'server-request.envelope': na('onlyErrors'),
  'server-request.answer-accepted': na('noSessions'),
  'server-request.cancel': na('noSessions'),
  'server-request.open-on-resume': na('noSessions'),
  ...Object.fromEntries(HERMES_SCENARIOS.map((id) => [id, na('noSessions')])),
};

const runs = new Map<RunName, Promise<Matrix>>();

async function runOn(name: RunName): Promise<Matrix> {
  const dir = scratchDir(`contract-gate-audit-${name}`);
  const answer = SCRIPTED[name];
  const server = answer ? await startScripted(answer) : undefined;
  try {
    const contract = join(dir, 'hollow.openrpc.json');
    writeFileSync(contract, JSON.stringify(CONTRACT));
    const target = server ? ['--target', server.url, '--contract', contract] : name === 'noSessions' ? ['--contract', contract] : [];
    const extra = name === 'silent' ? ['--client-contract', contract] : [];
    const config = await runConfigFor(parseRunOptions([...BASE, ...target, ...extra, ...ARGS[name], '--report-dir', join(dir, 'report')]));
    return (await runInProcess(config, { lanes: name === 'clean' ? 2 : 1 })).matrix;
  } finally {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function matrixOf(name: RunName): Promise<Matrix> {
  let run = runs.get(name);
  if (!run) {
    run = runOn(name);
    runs.set(name, run);
  }
  return run;
}

const shown = (cells: readonly MatrixCell[]): string[] => cells.map((cell) => `${cell.method} × ${cell.check}: ${cell.status}${cell.detail ? ` (${cell.detail.slice(0, 160)})` : ''}`);

test('every check of the catalogue is audited: n/a (or never pass) where its precondition cannot occur, pass with evidence on the clean gateway, fail under a fault', async () => {
  // Seven in-process runs at once, the clean full run the longest (about a minute on an idle machine).
  test.setTimeout(480_000);
  expect(allChecks().ids.filter((id) => AUDIT[id] === undefined), 'check ids missing from the audit').toEqual([]);
  expect(Object.keys(AUDIT).filter((id) => !allChecks().has(id)), 'audit entries for checks that do not exist').toEqual([]);

  const names = Object.keys(ARGS) as RunName[];
  const matrices = new Map<RunName, Matrix>();
  for (const [index, matrix] of (await Promise.all(names.map(matrixOf))).entries()) matrices.set(names[index] as RunName, matrix);

  // The control of the fault self-test (test/selftest): the clean gateway's full run of the full document fails no
  // cell and runs every cell it declares, and judges every check but the two that need a setup of their own
  // (skew.client-contract exists only with --client-contract, the (auth) row only against a gated target).
  const clean = matrices.get('clean') as Matrix;
  expect.soft(shown(clean.cells.filter((cell) => cell.status === 'fail')), 'failing cells of the clean gateway').toEqual([]);
  expect.soft(shown(clean.cells.filter((cell) => cell.status === 'not-run')), 'cells of the clean run that did not run').toEqual([]);
  const judged = new Set(clean.cells.map((cell) => cell.check));
  const elsewhere = (id: string): boolean => id === 'skew.client-contract' || id.startsWith('auth.');
  expect.soft(allChecks().ids.filter((id) => !elsewhere(id) && !judged.has(id)), 'checks missing from the clean full run').toEqual([]);

  for (const [name, matrix] of matrices) {
    const hollow = matrix.cells.filter((cell) => cell.status === 'pass' && !isEvidenced(cell.evidence));
    expect.soft(shown(hollow), `passes with no evidence in the ${name} run`).toEqual([]);
    expect.soft(matrix.summary.passWithoutEvidence, `summary of the ${name} run`).toBe(0);
  }

  for (const [check, { run, expect: wanted }] of Object.entries(AUDIT)) {
    const cells = (matrices.get(run) as Matrix).cells.filter((cell) => cell.check === check);
    expect.soft(cells.length, `${check}: the ${run} run declares no cell for it`).toBeGreaterThan(0);
    // A silent target is found slow after a few requests: the cells after that are not-run, which is no pass either.
    const wrong = cells.filter((cell) => (wanted === 'n/a' ? cell.status !== 'n/a' && cell.status !== 'not-run' : cell.status === 'pass'));
    expect.soft(shown(wrong), `${check} in the ${run} run must ${wanted === 'n/a' ? 'be n/a' : 'not pass'}`).toEqual([]);
    if (wanted === 'n/a') expect.soft(cells.some((cell) => cell.status === 'n/a'), `${check} in the ${run} run: no cell is n/a`).toBe(true);
  }

  // The pass side: each check passes, having observed something, on the clean gateway (gated for the auth row,
  // --client-contract for the skew gate); the browser lane needs the system Chromium.
  const passing = new Set(['clean', 'gated', 'clientContract'].flatMap((name) => (matrices.get(name as RunName) as Matrix).cells.filter((cell) => cell.status === 'pass' && isEvidenced(cell.evidence)).map((cell) => cell.check)));
  const needsBrowser = (id: string): boolean => id === 'scenario.browser-remote-lane' && !existsSync(CHROMIUM_PATH);
  expect.soft(allChecks().ids.filter((id) => !passing.has(id) && !needsBrowser(id)), 'checks that pass nowhere with evidence').toEqual([]);

  // The fail side: the self-test (test/selftest) runs each of these faults and holds it to its failing cells.
  const canFail = new Set(FAULT_CASES.flatMap((faultCase) => faultCase.failing.map((cell) => cell.check)));
  expect.soft(allChecks().ids.filter((id) => !canFail.has(id)), 'checks no fault of the catalogue makes fail').toEqual([]);
});
