import { cellFamily } from '../../../src/run/cellFamily.js';
import type { CellDeclaration } from '../../../src/run/cellTypes.js';
import type { RunPlan } from '../../../src/run/runPlan.js';
import { HOOK_REQUIREMENTS } from '../scenarios/hookScenarios.js';
import { LIFECYCLE_REQUIREMENTS } from '../scenarios/lifecycleScenarios.js';
import { REPLAY_REQUIREMENTS } from '../scenarios/replayJudge.js';
import { TOPOLOGY_REQUIREMENTS } from '../scenarios/topologyScenarios.js';
import { HERMES_MODEL_METHODS } from '../stateful/hermesSessionModel.js';
import { AUTH_CELLS, AUTH_ROW, authRowRuns, EXPIRY_BUDGET_MS } from './authCells.js';
import { browserLaneCell, REMOTE_LANE_PAGE } from './browserLane.js';
import { hookBuildFailureCell, hookCleanupExceptionCell, hookNormalCloseCell, hookOnceCell, hookResetCell } from './hookCells.js';
import { closeResumeCell, deleteLiveCell } from './lifecycleCells.js';
import { dropReplayCell, epochCell, overflowCell, statsCell, watermarkAheadCell } from './replayCells.js';
import { declaredServerRequests, SERVER_REQUEST_CHECKS, serverRequestCell } from './serverRequestCells.js';
import { STATEFUL_SUBJECT, statefulCell } from './statefulCells.js';
import { localLaneCell, remoteLaneCell, skewCell, tolerantClientCell } from './topologyCells.js';

/** Every server→client request the contracts declare, provoked on the reference gateway, each check one cell. */
function serverRequestCells(plan: RunPlan): CellDeclaration[] {
  const { live } = cellFamily('serverRequests');
  // An external target is not told to ask: its envelope cell judges the requests the run observed (fixtures/cellCatalogue.ts).
  const external = plan.config.target.kind === 'external';
  return declaredServerRequests(plan).flatMap(({ contractIndex, request }) =>
    SERVER_REQUEST_CHECKS.filter(({ check }) => !(external && check === 'server-request.envelope')).map(({ check, methods }) =>
      live(request.name, check, serverRequestCell(contractIndex, request, check), { timeoutMs: 20_000, requires: { methods, events: ['message.complete'] } }),
    ),
  );
}

function topologyCells(): CellDeclaration[] {
  const { live } = cellFamily('topology', TOPOLOGY_REQUIREMENTS);
  const timeoutMs = 15_000;
  return [
    live('topology', 'scenario.topology-local', localLaneCell, { timeoutMs }),
    live('topology', 'scenario.topology-remote', remoteLaneCell, { timeoutMs }),
    live('topology', 'scenario.tolerant-client', tolerantClientCell, { timeoutMs }),
    live('topology', 'skew.predicted-observed', skewCell, { timeoutMs }),
  ];
}

/** The remote lane from a real browser: a static page opens the WebSocket from Chromium and sends the desktop's create. */
function browserCells(): CellDeclaration[] {
  const { live } = cellFamily('browser', TOPOLOGY_REQUIREMENTS);
  return [live('topology', 'scenario.browser-remote-lane', browserLaneCell(REMOTE_LANE_PAGE), { timeoutMs: 30_000 })];
}

function lifecycleCells(): CellDeclaration[] {
  const { live } = cellFamily('lifecycle');
  return [
    live('lifecycle', 'scenario.lifecycle-delete-live', deleteLiveCell, { timeoutMs: 15_000, requires: LIFECYCLE_REQUIREMENTS.deleteLive }),
    live('lifecycle', 'scenario.lifecycle-close-resume', closeResumeCell, { timeoutMs: 15_000, requires: LIFECYCLE_REQUIREMENTS.closeResume }),
  ];
}

function replayCells(): CellDeclaration[] {
  const { live } = cellFamily('replay', REPLAY_REQUIREMENTS.turns);
  const timeoutMs = 15_000;
  return [
    live('replay', 'scenario.replay-clean-close', dropReplayCell('clean-close'), { timeoutMs, requires: REPLAY_REQUIREMENTS.drop }),
    live('replay', 'scenario.replay-overflow', overflowCell, { timeoutMs: 30_000 }),
    live('replay', 'scenario.replay-watermark-ahead', watermarkAheadCell, { timeoutMs }),
    live('replay', 'scenario.replay-stats', statsCell, { timeoutMs, requires: REPLAY_REQUIREMENTS.stats }),
  ];
}

/** Replay after an abnormal drop, a drop mid-stream and a restart: a fragile target may not survive them, so they run last. */
function replayDropCells(): CellDeclaration[] {
  const { live } = cellFamily('replayDrops', REPLAY_REQUIREMENTS.turns);
  const options = { timeoutMs: 15_000, stage: 'destructive' as const };
  return [
    live('replay', 'scenario.replay-abnormal-drop', dropReplayCell('abnormal-drop'), { ...options, requires: REPLAY_REQUIREMENTS.drop }),
    live('replay', 'scenario.replay-mid-stream', dropReplayCell('mid-stream'), { ...options, requires: REPLAY_REQUIREMENTS.drop }),
    live('replay', 'scenario.replay-epoch', epochCell, options),
  ];
}

function hookCells(): CellDeclaration[] {
  const { live } = cellFamily('hooks', HOOK_REQUIREMENTS);
  return [
    live('hooks', 'scenario.hooks-cleanup-exception', hookCleanupExceptionCell),
    live('hooks', 'scenario.hooks-normal-close', hookNormalCloseCell),
    live('hooks', 'scenario.hooks-reset', hookResetCell),
    live('hooks', 'scenario.hooks-build-failure', hookBuildFailureCell),
    live('hooks', 'scenario.hooks-once', hookOnceCell),
  ];
}

/** Random call sequences: the session model's postconditions, and lockstep against a fresh reference gateway. */
function statefulCells(): CellDeclaration[] {
  const { live } = cellFamily('stateful', { methods: HERMES_MODEL_METHODS });
  const options = { timeoutMs: 180_000, together: STATEFUL_SUBJECT };
  return [
    live(STATEFUL_SUBJECT, 'stateful.model', statefulCell('model'), options),
    live(STATEFUL_SUBJECT, 'stateful.differential', statefulCell('differential'), options),
  ];
}

/** The auth boundary of a gated target: each credential the upgrade must refuse, and what it must select. */
function authCells(plan: RunPlan): CellDeclaration[] {
  if (!authRowRuns(plan)) return [];
  const { live } = cellFamily('auth');
  return Object.entries(AUTH_CELLS).map(([check, body]) =>
    live(AUTH_ROW, check as keyof typeof AUTH_CELLS, body, { timeoutMs: check === 'auth.expired-refused' ? EXPIRY_BUDGET_MS + 20_000 : 20_000 }),
  );
}

/** The Hermes profile's cells, in matrix order: scenarios and stateful runs, the auth row, then the destructive replays. */
export function hermesCells(plan: RunPlan): CellDeclaration[] {
  return [
    ...serverRequestCells(plan),
    ...topologyCells(),
    ...browserCells(),
    ...lifecycleCells(),
    ...replayCells(),
    ...hookCells(),
    ...statefulCells(),
    ...authCells(plan),
    ...replayDropCells(),
  ];
}
