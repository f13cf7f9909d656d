import { choice, duration, flag, integer, list, type OptionTable, path, text } from '../optionTypes.js';

/** The options of `replay`, `proxy`, `skew`, `report` and `init` that `run` does not share. */
export const TOOL_OPTIONS = {
  replayTarget: {
    flag: 'target',
    type: text('url'),
    help: 'gateway to send it to (an embedded run starts the reference gateway again with the recorded contracts and faults)',
    commands: ['replay'],
    defaultFrom: { text: 'the recorded target', by: 'run' },
  },
  timeout: { type: duration(100), help: 'per-request timeout', commands: ['replay'], default: 5000 },

  upstream: { type: text('url'), help: 'the gateway the client is meant to reach: ws(s)://host:port/api/ws', commands: ['proxy'], required: true },
  proxyContract: {
    flag: 'contract',
    type: path('file', { url: true }),
    help: 'OpenRPC document of the gateway (the server contract)',
    commands: ['proxy'],
    defaultFrom: { text: "the profile's default document", by: 'profile' },
  },
  proxyPort: { flag: 'port', type: integer({ min: 0, max: 65535 }), help: 'port to listen on (0 = any free port)', commands: ['proxy'], default: 8790 },
  proxyReportDir: { flag: 'report-dir', type: path('dir'), help: 'report folder written on exit', commands: ['proxy'], default: 'contract-gate-proxy-report' },
  duration: {
    type: integer({ min: 1 }, 's'),
    help: 'stop after this many seconds',
    commands: ['proxy'],
    defaultFrom: { text: 'until SIGINT/SIGTERM or the upstream goes away', by: 'run' },
  },
  failOn: { type: choice(['finding', 'never'], 'what'), help: 'exit 1 when anything was found, or when nothing was judged ("finding"), or never because of findings', commands: ['proxy'], default: 'never' },
  proxyBindings: {
    flag: 'bindings',
    type: path('file', { keywords: ['none'] }),
    help: 'identifier binding rules, so that replay files re-create live ids on another target; "none" to disable',
    commands: ['proxy'],
    defaultFrom: { text: 'bindings.json beside the contract', by: 'run' },
  },
  proxyProfile: {
    flag: 'profile',
    type: path('name|file', { names: "a registered profile's name" }),
    help: "the gateway's profile: a registered profile's name, or a JSON codes file extending one",
    commands: ['proxy'],
    defaultFrom: { text: 'the first registered profile that recognises the contract', by: 'profile' },
  },
  maxFrame: {
    type: integer({ min: 1024 }, 'bytes'),
    help: 'largest message relayed either way; a larger one closes that side with 1009',
    commands: ['proxy'],
    default: 100 * 1024 * 1024,
  },
  keepRunning: { type: flag(), help: 'keep listening when the upstream goes away (closes with 1001/1006/1012, or refuses connections)', commands: ['proxy'], default: false },

  client: { type: path('file', { url: true }), help: 'OpenRPC document of the client: the side that sends params (path or URL)', commands: ['skew'] },
  server: { type: path('file', { url: true }), help: 'OpenRPC document of the server: the side that reads params (path or URL)', commands: ['skew'] },
  matrix: { type: list(path('files...', { url: true })), help: 'compare every ordered pair of these documents (rows = client, columns = server)', commands: ['skew'] },
  skewFormat: { flag: 'format', type: choice(['text', 'md', 'json'], 'format'), help: 'output format', commands: ['skew'], default: 'text' },
  output: { type: path('file'), help: 'write the report to this file instead of stdout', commands: ['skew'] },
  byNameUnknown: {
    type: choice(['rejected', 'ignored'], 'policy'),
    help: 'what servers do with an undeclared by-name param (the document cannot say)',
    commands: ['skew'],
    default: 'rejected',
  },

  reportOutput: {
    flag: 'output',
    type: path('dir'),
    help: 'where to write the HTML report',
    commands: ['report'],
    defaultFrom: { text: '<report-dir>/allure-report', by: 'run' },
  },

  initFormat: { flag: 'format', type: choice(['mjs', 'json', 'ts'], 'format'), help: 'format of the configuration file', commands: ['init'], default: 'mjs' },
  force: { type: flag(), help: 'overwrite files that exist', commands: ['init'], default: false },
  workflow: { type: flag(), help: 'do not write the GitHub Actions workflow', commands: ['init'], negate: true, default: true },
} as const satisfies OptionTable;
