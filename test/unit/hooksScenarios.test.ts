import { expect, test } from './helpers/test.js';
import { join } from 'node:path';
import { startGateway } from '../../gateway/index.js';
import { RpcClient } from '../../src/client/rpcClient.js';
import { loadContractSync } from '../../src/contracts/index.js';
import { HERMES_DIALECT } from '../../profiles/hermes/dialect.js';
import {
  buildFailureVerdict,
  cleanupExceptionVerdict,
  HookPayloadCheck,
  type HookScenarioContext,
  type HookVerdict,
  normalCloseVerdict,
  NO_DOCUMENT,
  NOT_DECLARED,
  onceVerdict,
  pluginFailureVerdict,
  REFERENCE_ONLY,
  resetVerdict,
  type StartSibling,
} from '../../profiles/hermes/scenarios/hooks.js';

const HERMES = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'session-lifecycle.openrpc.json');
const HOOKS = join(process.cwd(), 'profiles', 'hermes', 'contracts', 'session-hooks.openrpc.json');
const CHECK = HookPayloadCheck.fromContracts([loadContractSync(HOOKS)]);

type CheckName = 'cleanup-exception' | 'normal-close' | 'reset' | 'build-failure' | 'once' | 'plugin-failure';
const ALL_PASS: Record<CheckName, HookVerdict['status']> = {
  'cleanup-exception': 'pass',
  'normal-close': 'pass',
  reset: 'pass',
  'build-failure': 'pass',
  once: 'pass',
  'plugin-failure': 'pass',
};

interface TargetSetup {
  /** Served documents; default Hermes plus the hooks extension. */
  contracts?: string[];
  /** Gateway faults switched on in the target (never in its siblings unless `siblingFaults` says so). */
  faults?: string[];
  /** Gateway faults of siblings started with the given plugins. */
  siblingFaults?: (plugins: string[]) => string[];
  /** No siblings: the target counts as external. */
  external?: boolean;
  check?: HookPayloadCheck | undefined;
}

/** Runs every hook scenario against a reference gateway set up as asked; returns each verdict by check. */
async function verdicts(setup: TargetSetup = {}, only?: CheckName[]): Promise<Record<string, HookVerdict>> {
  const contractPaths = setup.contracts ?? [HERMES, HOOKS];
  const gateway = await startGateway({ contractPaths, buildDelayMs: 5, faults: setup.faults ?? [] });
  const clients: RpcClient[] = [];
  const context: HookScenarioContext = {
    connect: async (options = {}) => {
      const client = await RpcClient.connect({ dialect: HERMES_DIALECT, url: options.url ?? gateway.url, readyTimeoutMs: 2_000, requestTimeoutMs: 5_000 });
      clients.push(client);
      return client;
    },
    check: 'check' in setup ? setup.check : CHECK,
  };
  const startSibling: StartSibling = async (plugins, hookTimeoutMs) => {
    const sibling = await startGateway({ contractPaths, buildDelayMs: 5, plugins, hookTimeoutMs, faults: setup.siblingFaults?.(plugins) ?? [] });
    return { url: sibling.url, close: () => sibling.close() };
  };
  const scenarios: Record<CheckName, () => Promise<HookVerdict>> = {
    'cleanup-exception': () => cleanupExceptionVerdict(context),
    'normal-close': () => normalCloseVerdict(context),
    reset: () => resetVerdict(context),
    'build-failure': () => buildFailureVerdict(context),
    once: () => onceVerdict(context),
    'plugin-failure': () => pluginFailureVerdict(context, setup.external ? undefined : startSibling),
  };
  try {
    const names = only ?? (Object.keys(scenarios) as CheckName[]);
    const results = await Promise.all(names.map((name) => scenarios[name]()));
    return Object.fromEntries(names.map((name, i) => [name, results[i] as HookVerdict]));
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await gateway.close();
  }
}

const statuses = (found: Record<string, HookVerdict>): Record<string, string> => Object.fromEntries(Object.entries(found).map(([name, verdict]) => [name, verdict.status]));

test('every hook check passes against the reference gateway', async () => {
  const found = await verdicts();
  expect(statuses(found), JSON.stringify(found, null, 1)).toEqual(ALL_PASS);
});

const FAULTS: ReadonlyArray<readonly [string, CheckName, RegExp]> = [
  ['hooks.cleanup-loses-disconnect-exception', 'cleanup-exception', /after an abnormal drop has exception null; expected \{type: "ConnectionClosed"/],
  ['hooks.close-reports-exception', 'normal-close', /after session\.close has exception \{"type":"RuntimeError"/],
  ['hooks.reset-without-previous-context', 'reset', /has previous_context undefined; expected the context as it was/],
  ['hooks.build-failure-other-message', 'build-failure', /the cleanup exception message "agent init failed" differs from the error event's text/],
  ['hooks.cleanup-twice', 'once', /\(closed twice\) gave 2 session_cleanup events; exactly one is allowed per session/],
];

for (const [fault, check, reason] of FAULTS) {
  test(`a gateway with ${fault} fails scenario.hooks-${check} and nothing else`, async () => {
    const found = await verdicts({ faults: [fault] });
    expect(statuses(found), JSON.stringify(found, null, 1)).toEqual({ ...ALL_PASS, [check]: 'fail' });
    expect(found[check]?.detail).toMatch(reason);
    expect(found[check]?.violations.every((violation) => violation.check === `scenario.hooks-${check}`)).toBe(true);
  });
}

test('a gateway whose throwing cleanup plugin leaks into the close answer breaks oracle.hooks-plugin-isolation', async () => {
  const found = await verdicts({ siblingFaults: (plugins) => (plugins.includes('throw-in-cleanup') ? ['hooks.plugin-error-reaches-client'] : []) }, ['plugin-failure']);
  expect(found['plugin-failure']?.status).toBe('fail');
  expect(found['plugin-failure']?.detail).toMatch(/^with the throw-in-cleanup plugin, session\.close gave \{"error":-32603,"message":"internal error: session_cleanup handler failed"\}; without plugins it gave \{"result":\{"closed":true\}\}/);
});

test('a target that does not declare hooks.subscribe gets every hook cell n/a with that reason, never a pass', async () => {
  const found = await verdicts({ contracts: [HERMES] });
  for (const verdict of Object.values(found)) expect(verdict).toEqual({ status: 'n/a', detail: NOT_DECLARED, violations: [] });
});

test('n/a for plugin-failure against an external target, and for every cell when no document declares session.hook', async () => {
  const external = await verdicts({ external: true }, ['plugin-failure']);
  expect(external['plugin-failure']).toEqual({ status: 'n/a', detail: REFERENCE_ONLY, violations: [] });
  const externalWithoutHooks = await verdicts({ external: true, contracts: [HERMES] }, ['plugin-failure']);
  expect(externalWithoutHooks['plugin-failure']).toEqual({ status: 'n/a', detail: NOT_DECLARED, violations: [] });
  const undocumented = await verdicts({ check: undefined }, ['cleanup-exception']);
  expect(undocumented['cleanup-exception']).toEqual({ status: 'n/a', detail: NO_DOCUMENT, violations: [] });
});
