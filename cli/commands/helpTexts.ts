import { BUILTIN_PLUGINS } from '../../gateway/hooks/builtinPlugins.js';

/** What `<command> --help` prints after the options (kept apart from the commands, which load only when they run). */
export const RUN_HELP = `
Configuration: every option above can live in contract-gate.config.{ts,mjs,json} (found from the working directory
upward, or --config FILE) under its name in camelCase (--report-dir → reportDir), with named projects picked by
--project NAME. The command line wins over the project, the project over the file's top level, that over the
defaults. Secrets are never in the file: name the variables that hold them (tokenEnv, passwordEnv, …).
\`contract-gate init\` writes a starter file; docs/configuration.md lists every key.

Exit codes: 0 every check holds or is a known failure in the baseline (flaky cells included, unless
--fail-on-flaky); 1 a check failed, a baseline entry is stale, a cell is flaky under --fail-on-flaky, fewer methods
were reached than --min-coverage asks, or no check could be judged (every selected one n/a for this target); 2 usage
or harness error (target unreachable, contract invalid, bad arguments). A flaky cell failed, then passed when
--retries ran it again with the same seed and cases: it is reported as flaky, never as pass.

Examples:
  npx contract-gate run
  npx contract-gate run --project staging --seed 42
  GATEWAY_TOKEN=… npx contract-gate run --target ws://127.0.0.1:9119/api/ws --token-env GATEWAY_TOKEN
  GATEWAY_PASSWORD=… npx contract-gate run --target wss://staging.example/api/ws --auth ticket --login basic --user ci --password-env GATEWAY_PASSWORD
  npx contract-gate run --contract node_modules/@metamask/api-specs/dist/build/openrpc.json
  npx contract-gate run --grep "@check:params\\.unknown-key" --seed 42`;

export function serveHelp(): string {
  const plugins = Object.values(BUILTIN_PLUGINS)
    .map((plugin) => `  ${plugin.usage.padEnd(30)} ${plugin.summary}`)
    .join('\n');
  return `
Prints exactly one line, "contract-gate gateway listening on ws://HOST:PORT/api/ws", once it accepts
connections. With --stdio, stdout is the wire instead: gateway.ready, then one JSON value per line (logs go to
stderr with --verbose); it runs until stdin ends. Started with an older contract (one from before a key
existed) it behaves as an older backend: keys that document does not declare are rejected with 4000.

Built-in session hook plugins (meant for tests; priority 50; a config entry may set priority and mode):
${plugins}
A handler that throws or exceeds --hook-timeout is logged (see --verbose) and skipped; clients see no difference.

Faults (--fault NAME) make the gateway deliberately wrong in one way each, to show that the check meant to catch
it fails: \`contract-gate run --fault NAME\` starts the embedded gateway with it. --list-faults prints them.`;
}

export const REPLAY_HELP =
  '\nLive ids (session ids, stored keys, paths) are created again on the target from the recorded binding rules, so the replay works on a fresh gateway.\n' +
        'A gated target gets a fresh ticket: from the auth options given here, else from the recorded ones (their variables must be set).';

export const PROXY_HELP = `
Point the client at the printed address instead of the gateway; its query string (?token=…, ?ticket=…), its
subprotocols and its Origin, Authorization and Cookie headers are passed to the upstream as they are, and the
subprotocol the upstream picks is the one the client gets. Plain HTTP requests (a dashboard page, REST calls
beside the socket) are forwarded to the upstream's host unjudged. Frames are passed on before they are judged: a finding
never changes, delays or drops traffic. Non-JSON, binary and huge frames are relayed as they are (huge ones, over
8 MiB, are not judged); an abrupt close on one side is passed on to the other.

What is judged, with the check ids of \`run\`:
  client requests   against the server contract's params: a key a closed model forbids (params.unknown-key-rejected:
                    the gateway must refuse it, naming the path), wrong type or missing required
                    (params.invalid-not-accepted), conforming ones (params.valid-accepted); a refused request is
                    version skew (skew.client-contract); with --client-contract, also what the client may send
  answers           envelope.* (jsonrpc, id echo, result xor error, error shape), result.schema; an undeclared method
                    must get -32601 (envelope.unknown-method)
  events            event.envelope, event.payload-schema, event.seq-monotonic per session and connection
  server requests   server-request.envelope; the client's answers by envelope.* and result.schema

Each finding prints one line when first seen (time, connection, subject, check, offending path, frame excerpt with
secrets redacted); repeats are counted. On exit (SIGINT, --duration, the upstream going away) the report folder
gets matrix.json/.md/.html (a row per observed method, event and server request), junit.xml, findings.json,
summary.txt (with the skew summary "client on … vs server on …: method.path"), the transcripts of the connections
with findings and one replay file per finding (\`npx contract-gate replay <file> --target URL\`).

Exit codes: 0 stopped (findings or not, unless --fail-on finding); 1 something was found, or no frame the contracts
declare crossed the proxy, with --fail-on finding; 2 usage or harness error (upstream unreachable at start, contract
invalid, port in use).

Examples:
  npx contract-gate proxy --upstream wss://staging.example.com/api/ws --port 8790 \\
      --contract gateway.openrpc.json --client-contract desktop-2.4.openrpc.json
  npx contract-gate proxy --upstream ws://127.0.0.1:8800/api/ws --duration 120 --fail-on finding`;

export const SKEW_HELP = `
Direction:
  The client is the side that SENDS params and reads results and events; the server reads params
  and sends results and events. The verdict is not symmetric: a newer client may break an older
  server while the newer server still serves the older client.

  Unlike OpenAPI diff tools, this is not an old-to-new document diff. oasdiff, for example, rates a
  new optional request field as INFO (non-breaking): true for a new server and old clients, but a
  new client that sends that field to an old server whose model is closed
  (additionalProperties: false) is rejected (with the server profile's own code and wording where it
  has one, elsewhere -32602). Run both directions, or --matrix.

Exit codes:
  0  nothing breaking (warnings and info findings do not fail)
  1  at least one breaking finding (for --matrix: in at least one client/server pair)
  2  usage error or invalid contract (missing file, not JSON, fails the OpenRPC meta-schema,
     dangling $ref); the reason is printed to stderr

Examples:
  contract-gate skew --client desktop-2.4.openrpc.json --server gateway-2.3.openrpc.json
  contract-gate skew --matrix old.openrpc.json new.openrpc.json --format md --output skew.md
`;

export const MERGE_HELP = `
Every shard must run with the same --seed, target, contracts and --min-coverage, and every shard i/n of the run must
be given once: the merge refuses otherwise (a missing shard's cells would pass unseen), and leaves no report in
--report-dir, an earlier merge's included. The coverage floor is applied to
the merged matrix, never to a shard's. The merge prints the merged verdict as run does.
Exit codes: 0 the merged matrix passes; 1 a check failed, a baseline entry is stale, a cell is flaky under
--fail-on-flaky, fewer methods were reached than --min-coverage asks, or no check could be judged (every one n/a); 2
the merge failed or was refused.

Example (four machines, then one merge job):
  npx contract-gate run --shard 1/4 --seed 42 --report-dir blob-1   # … 2/4, 3/4, 4/4 on other machines
  npx contract-gate merge blob-*/ --report-dir contract-gate-report`;
