/** The files `contract-gate init` writes: a commented configuration and a GitHub Actions workflow using the Action. */

export type ConfigFormat = 'mjs' | 'json' | 'ts';

export const SCHEMA_PATH = './node_modules/contract-gate/docs/config.schema.json';

const quote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function contractLines(documents: readonly string[]): string {
  if (documents.length === 0) {
    return [
      "  // No OpenRPC document was found in this repository, so this runs against the embedded reference gateway with",
      "  // the profile's default documents. Name your gateway's documents here (paths or http(s) URLs):",
      "  // contract: ['openrpc.json'],",
    ].join('\n');
  }
  return [`  // The OpenRPC documents found in this repository; the first one picks the profile.`, `  contract: [${documents.map(quote).join(', ')}],`].join('\n');
}

function moduleConfig(documents: readonly string[], format: 'mjs' | 'ts'): string {
  return `// contract-gate configuration: the options of \`contract-gate run\`, by their long names in camelCase.
// Paths are relative to this file. The command line wins over a project, a project over the top level.
// Every key, with its default: node_modules/contract-gate/docs/configuration.md${format === 'ts' ? '\n// A .ts configuration is loaded with tsx (npm i -D tsx); .mjs needs nothing more.' : ''}
import { defineConfig } from 'contract-gate/config';

export default defineConfig({
${contractLines(documents)}

  // Without a target, contract-gate starts its embedded reference gateway. A deployed gateway:
  // target: 'wss://staging.example.com/api/ws',

  // Secrets never go in this file, only the names of the environment variables that hold them:
  // tokenEnv: 'GATEWAY_TOKEN',

  // A fixed seed sends the same generated payloads on every run (default: random, printed by each run).
  // seed: 1,

  // A deployed gateway can be far slower than the embedded one. A time budget ends the run within it: the generated
  // payloads are spread over the methods by their measured latency; examples and negative checks are never cut.
  // budget: '5m',

  // A PASS that judged few methods is not much of one: with a floor, fewer methods answering a valid call with a
  // success than this share of them fails the run (the verdict line says by how much).
  // minCoverage: 90,

  // matrix.json/.md/.html, junit.xml, transcripts/ and replays/ go here.
  reportDir: 'contract-gate-report',

  // Named sets of overrides: npx contract-gate run --project staging
  projects: {
    // staging: { target: 'wss://staging.example.com/api/ws', tokenEnv: 'STAGING_GATEWAY_TOKEN', maxInFlight: 2, budget: '5m' },
  },
});
`;
}

function jsonConfig(documents: readonly string[]): string {
  const config: Record<string, unknown> = { $schema: SCHEMA_PATH };
  if (documents.length > 0) config['contract'] = documents;
  config['reportDir'] = 'contract-gate-report';
  config['projects'] = {};
  return `${JSON.stringify(config, null, 2)}\n`;
}

export function starterConfig(format: ConfigFormat, documents: readonly string[]): string {
  return format === 'json' ? jsonConfig(documents) : moduleConfig(documents, format);
}

export function starterWorkflow(configFile: string): string {
  return `# The contract gate of this repository's gateway: every conformance check of contract-gate, on every pull request.
# Exit codes: 0 every check holds (or is a known failure in the baseline); 1 the gate failed: a check failed, a
# baseline entry is stale, a cell is flaky under --fail-on-flaky, fewer methods were reached than --min-coverage asks,
# or no check could be judged (every one n/a); 2 usage or harness error. The report folder is uploaded as an
# artifact, the matrix is on the job's page.
name: contract-gate

on:
  pull_request:
  push:
    branches: [main]

permissions:
  contents: read

jobs:
  contract-gate:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      # The Action ships inside the contract-gate package: the version in package-lock.json is the one that runs.
      - id: gate
        uses: ./node_modules/contract-gate
        with:
          config: ${configFile}
          # project: staging
          # token: \${{ secrets.GATEWAY_TOKEN }}
`;
}
