import { closeResumeVerdict, deleteLiveVerdict } from '../scenarios/lifecycleScenarios.js';
import type { CellBody } from '../../../src/run/cellTypes.js';
import { unsupported } from './scenarioSetup.js';

export const deleteLiveCell: CellBody = async ({ plan, target, connect }) =>
  unsupported(plan, target, ['session.create', 'prompt.submit', 'session.close', 'session.delete']) ?? deleteLiveVerdict(connect);

export const closeResumeCell: CellBody = async ({ plan, target, connect }) =>
  unsupported(plan, target, ['session.create', 'prompt.submit', 'session.history', 'session.close', 'session.resume']) ?? closeResumeVerdict(connect);
