import { expect, test } from './helpers/test.js';
import { join } from 'node:path';
import { loadContractSync } from '../../src/contracts/index.js';
import { HOOK_REQUIREMENTS } from '../../profiles/hermes/scenarios/hookScenarios.js';
import { LIFECYCLE_REQUIREMENTS } from '../../profiles/hermes/scenarios/lifecycleScenarios.js';
import { REPLAY_REQUIREMENTS } from '../../profiles/hermes/scenarios/replayJudge.js';
import { firstMissing, notDeclaredReason } from '../../src/run/requirements.js';
import { TOPOLOGY_REQUIREMENTS } from '../../profiles/hermes/scenarios/topologyScenarios.js';

const REPO = join(import.meta.dirname, '..', '..');
const load = (path: string) => loadContractSync(join(REPO, path));

test('the Hermes documents declare what every scenario family needs; the hooks need the extension', () => {
  const lifecycle = load('profiles/hermes/contracts/session-lifecycle.openrpc.json');
  const hooks = load('profiles/hermes/contracts/session-hooks.openrpc.json');
  for (const needs of [TOPOLOGY_REQUIREMENTS, REPLAY_REQUIREMENTS.turns, REPLAY_REQUIREMENTS.drop, REPLAY_REQUIREMENTS.stats, LIFECYCLE_REQUIREMENTS.deleteLive, LIFECYCLE_REQUIREMENTS.closeResume]) {
    expect(firstMissing([lifecycle], needs)).toBeUndefined();
  }
  expect(firstMissing([lifecycle], HOOK_REQUIREMENTS)).toBe('hooks.subscribe');
  expect(firstMissing([lifecycle, hooks], HOOK_REQUIREMENTS)).toBeUndefined();
  expect(firstMissing([load('profiles/hermes/contracts/session-lifecycle.pre-cwd-explicit.openrpc.json')], TOPOLOGY_REQUIREMENTS)).toBeUndefined();
});

test('a contract that is not Hermes is told which name it lacks', () => {
  const calculator = load('test/foreignServers/calculator.openrpc.json');
  expect(firstMissing([calculator], TOPOLOGY_REQUIREMENTS)).toBe('session.create');
  expect(firstMissing([calculator], REPLAY_REQUIREMENTS.turns)).toBe('session.create');
  expect(notDeclaredReason(firstMissing([calculator], HOOK_REQUIREMENTS) ?? '')).toBe('the contract declares no hooks.subscribe');
  expect(firstMissing([calculator], { methods: ['calc.add'], events: ['session.hook'] })).toBe('session.hook event');
  expect(firstMissing([calculator], { methods: ['calc.add'], params: ['calc.add.a', 'calc.add.c'] })).toBe('calc.add.c');
});
