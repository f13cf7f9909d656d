import { dropReplayVerdict, type DropMode } from '../scenarios/replayDrop.js';
import { epochVerdict } from '../scenarios/replayEpoch.js';
import { overflowVerdict, watermarkAheadVerdict } from '../scenarios/replayLimits.js';
import { statsVerdict } from '../scenarios/replayStats.js';
import type { CellBody } from '../../../src/run/cellTypes.js';
import { referenceGatewayOf } from '../referenceGateway.js';
import { unsupported, withSiblingGateway } from './scenarioSetup.js';

const TURN_METHODS = ['session.create', 'prompt.submit', 'session.events.since'];

export function dropReplayCell(mode: DropMode): CellBody {
  return async ({ plan, target, connect }) => unsupported(plan, target, [...TURN_METHODS, 'session.activate']) ?? dropReplayVerdict(connect, mode);
}

export const overflowCell: CellBody = async ({ plan, target, connect }) => unsupported(plan, target, TURN_METHODS) ?? overflowVerdict(connect);

export const watermarkAheadCell: CellBody = async ({ plan, target, connect }) => unsupported(plan, target, TURN_METHODS) ?? watermarkAheadVerdict(connect);

/** An embedded target is restarted in place (same port, new epoch); an external one cannot be, so only its epoch echo is judged. */
export const epochCell: CellBody = async ({ plan, target, connect }) => {
  const skipped = unsupported(plan, target, TURN_METHODS);
  if (skipped) return skipped;
  const gateway = referenceGatewayOf(target.gateway);
  return epochVerdict(connect, gateway ? { restart: () => gateway.restart() } : {});
};

/** Exact counts need a gateway nobody else writes to: a sibling reference gateway when the target is embedded. */
export const statsCell: CellBody = async ({ plan, target, connect }) => {
  const skipped = unsupported(plan, target, [...TURN_METHODS, 'session.events.stats']);
  if (skipped) return skipped;
  if (target.kind !== 'embedded') return statsVerdict(connect, { exact: false });
  return withSiblingGateway(plan, {}, (sibling) => statsVerdict((options = {}) => connect({ ...options, url: sibling.url }), { exact: true }));
};
