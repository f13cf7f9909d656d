import { expect, test } from './helpers/test.js';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Matrix } from '../../src/report/matrixTypes.js';
import { FOREIGN_DIR, startChildServer } from '../foreignServers/childServer.js';
import { startJaysonHttpServer, startJaysonServer, type ForeignServer } from '../foreignServers/jaysonServer.js';
import { startJsonRpc2Server } from '../foreignServers/jsonRpc2Server.js';
import { startRpcWebsocketsServer } from '../foreignServers/rpcWebsocketsServer.js';
import { runCli } from './helpers/cliRunner.js';
import { scratchDir } from './helpers/scratchDir.js';

// contract-gate pointed at JSON-RPC-over-WebSocket servers built on third-party npm libraries: jayson's WebSocket
// server, rpc-websockets' Server and json-rpc-2.0's JSONRPCServer (on a ws server) serve the same small application against a hand-written OpenRPC document
// (test/foreignServers/calculator.openrpc.json; the application validates its own params and raises the errors
// its contract declares), and @open-rpc/server-js serves the petstore example in mock mode against its own real
// document. Every failing cell below is a defect of the library, and each says which.
const CONTRACT = join(FOREIGN_DIR, 'calculator.openrpc.json');
const SCENARIO_FAMILIES = new Set(['topology', 'replay', 'lifecycle', 'hooks']);

interface ForeignCase {
  name: string;
  start: () => Promise<ForeignServer>;
  /** subject × check of every cell that must fail, each with why it is a genuine defect. */
  failing: Record<string, string>;
}

const CASES: ForeignCase[] = [
  {
    name: 'jayson (WebSocket server)',
    start: startJaysonServer,
    failing: {
      // A JSON string frame ("gateway") is valid JSON but not a request object: JSON-RPC 2.0 §5 asks for -32600
      // Invalid Request; jayson answers -32700 Parse error, which tells a client its frame was not JSON at all.
      '(connection) × envelope.invalid-request': '"gateway" (a JSON string) answered -32700 instead of -32600',
    },
  },
  {
    name: 'jayson (HTTP server)',
    start: startJaysonHttpServer,
    failing: {
      // Over HTTP, a body that is not JSON gets a plain-text 400 ("SyntaxError: …"), not a -32700 answer; and the
      // JSON string "gateway" -32700 as over WebSocket.
      '(connection) × envelope.parse-error': 'a body that is not JSON answered with a plain-text 400',
      '(connection) × envelope.invalid-request': '"gateway" (a JSON string) answered -32700 instead of -32600',
    },
  },
  {
    name: 'rpc-websockets (Server)',
    start: startRpcWebsocketsServer,
    failing: {
      // rpc-websockets tests `if (!message.id)` to tell notifications from requests, so requests whose id is ""
      // or 0 (both valid JSON-RPC ids) are treated as notifications and never answered.
      '(connection) × envelope.id-types': 'requests with id "" or 0 get no answer',
    },
  },
  {
    name: 'json-rpc-2.0 (JSONRPCServer)',
    start: startJsonRpc2Server,
    failing: {
      // receiveJSON answers the frame `null`, which is valid JSON but not a request object, with -32700 Parse error
      // instead of -32600 (JSON-RPC 2.0 §5); and a request whose method is not a string (7, null) with -32601 Method
      // not found instead of -32600 Invalid Request (§4: method is a String).
      '(connection) × envelope.invalid-request': 'null answered -32700; a method that is not a string answered -32601',
    },
  },
];

function failingCells(matrix: Matrix): string[] {
  return matrix.cells.filter((cell) => cell.status === 'fail').map((cell) => `${cell.method} × ${cell.check}`).sort();
}

for (const { name, start, failing } of CASES) {
  test(`${name}: only its genuine defects fail, and it is judged by the generic profile alone (no scenario of another family)`, async () => {
    test.setTimeout(150_000);
    const server = await start();
    const reportDir = scratchDir('contract-gate-foreign');
    try {
      const run = await runCli(['run', '--target', server.url, '--contract', CONTRACT, '--seed', '1', '--runs', '20', '--workers', '1', '--report-dir', reportDir], {}, 140_000);
      const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as Matrix;
      expect(failingCells(matrix), run.stdout).toEqual(Object.keys(failing).sort());
      expect(run.code).toBe(1);
      expect(matrix.targetDown).toBeUndefined();
      expect(matrix.cells.filter((cell) => SCENARIO_FAMILIES.has(cell.method)).map((cell) => `${cell.method} × ${cell.check}`)).toEqual([]);
      expect([...new Set(matrix.cells.map((cell) => cell.check.split('.')[0]))].sort()).toEqual(['envelope', 'params', 'result']);
      // Codes the contract declares in a method's errors (-32000 through $ref, 4413 inline) are domain errors.
      expect(matrix.cells.find((cell) => cell.method === 'calc.divide' && cell.check === 'params.valid-accepted')?.status).toBe('pass');
      expect(matrix.traffic?.peakInFlight).toBeLessThanOrEqual(4);
    } finally {
      await server.close();
      rmSync(reportDir, { recursive: true, force: true });
    }
  });
}

interface ServerJsCase {
  transport: string;
  args: string[];
  /** subject × check of every cell that must fail. */
  failing: string[];
  /** The check after which the target died, and the frame that killed it. */
  down: { check: string; frame: string };
  notRun: string[];
}

const SERVER_JS_CASES: ServerJsCase[] = [
  {
    transport: 'WebSocket',
    args: [],
    failing: [
      // The WebSocket transport parses each frame with an unguarded JSON.parse inside the socket's message
      // handler: a frame that is not JSON throws, nothing catches it, and the process ends (JSON-RPC 2.0 §5.1
      // asks for a -32700 answer). The harness names that frame and leaves every later cell not run.
      '(connection) × envelope.parse-error',
      // list_pets is by-position with one param (limit); its validator checks each declared param and ignores
      // the rest, so a second positional argument, which no descriptor of the contract describes, succeeds.
      'list_pets × params.invalid-not-accepted',
    ],
    down: { check: 'envelope.parse-error', frame: 'this is not json' },
    notRun: ['envelope.invalid-request', 'envelope.batch', 'envelope.oversized-frame'],
  },
  {
    transport: 'HTTP',
    args: ['--http'],
    failing: [
      // A body that is not JSON gets the web framework's HTML error page, not a -32700 answer.
      '(connection) × envelope.parse-error',
      // The HTTP transport reads `params[0]` of every request: one without params throws, nothing catches it,
      // and the process ends. The harness names that request (a POST refused from then on is a lost connection).
      '(connection) × envelope.invalid-request',
      'list_pets × params.invalid-not-accepted',
    ],
    down: { check: 'envelope.invalid-request', frame: '{"jsonrpc":"1.0","id":"cg-junk-v1","method":"list_pets"}' },
    notRun: ['envelope.batch', 'envelope.oversized-frame'],
  },
];

for (const { transport, args, failing, down, notRun } of SERVER_JS_CASES) {
  test(`@open-rpc/server-js serving the petstore example over ${transport}: its genuine defects fail, and the frame that kills it is named`, async () => {
    test.setTimeout(150_000);
    // The real document the server is generated from, as @open-rpc/examples ships it.
    const petstore = createRequire(import.meta.url).resolve('@open-rpc/examples/build/service-descriptions/petstore-openrpc.json');
    const server = await startChildServer('openRpcServerJs.mjs', args);
    const reportDir = scratchDir('contract-gate-foreign');
    try {
      const run = await runCli(['run', '--target', server.url, '--contract', petstore, '--seed', '1', '--runs', '20', '--workers', '1', '--report-dir', reportDir], {}, 140_000);
      const matrix = JSON.parse(readFileSync(join(reportDir, 'matrix.json'), 'utf8')) as Matrix;
      expect(failingCells(matrix), run.stdout).toEqual([...failing].sort());
      expect(run.code).toBe(1);
      expect(await server.exited).not.toBeNull();
      expect(matrix.targetDown).toMatchObject({ subject: '(connection)', ...down });
      for (const check of notRun) expect(matrix.cells.find((cell) => cell.method === '(connection)' && cell.check === check)?.status, check).toBe('not-run');
      expect(matrix.cells.filter((c) => SCENARIO_FAMILIES.has(c.method))).toEqual([]);
    } finally {
      await server.stop();
      rmSync(reportDir, { recursive: true, force: true });
    }
  });
}
