import { analyseSkew } from '../../../src/skew/index.js';
import { skewProbeVerdict } from '../scenarios/skewProbe.js';
import { closedParams, localLaneVerdict, remoteLaneVerdict, tolerantClientVerdict } from '../scenarios/topologyScenarios.js';
import type { CellBody } from '../../../src/run/cellTypes.js';
import { cwdExplicitDesktopContract, desktopContract, targetContract, unsupported } from './scenarioSetup.js';

/** Annotation carrying the predicted-vs-observed table of `skew.predicted-observed` (Markdown). */
export const SKEW_TABLE_ANNOTATION = 'contract-gate.skew-table';

export const localLaneCell: CellBody = async ({ plan, target, connect }) => unsupported(plan, target, ['session.create']) ?? localLaneVerdict(connect);

export const remoteLaneCell: CellBody = async ({ plan, target, connect }) => {
  const contract = targetContract(plan);
  if (!contract) return { status: 'n/a', detail: 'no target contract', violations: [] };
  return unsupported(plan, target, ['session.create']) ?? remoteLaneVerdict(connect, { report: analyseSkew(cwdExplicitDesktopContract(plan), contract, { serverCodes: plan.profile.codes }), profile: plan.profile.codes });
};

export const tolerantClientCell: CellBody = async ({ plan, target, connect }) => {
  const contract = targetContract(plan);
  if (!contract) return { status: 'n/a', detail: 'no target contract', violations: [] };
  return (
    unsupported(plan, target, ['session.create']) ??
    tolerantClientVerdict(connect, { report: analyseSkew(cwdExplicitDesktopContract(plan), contract, { serverCodes: plan.profile.codes }), profile: plan.profile.codes, targetCreateClosed: closedParams(contract, 'session.create') })
  );
};

export const skewCell: CellBody = async ({ plan, target, connect }, testInfo) => {
  const contract = targetContract(plan);
  if (!contract) return { status: 'n/a', detail: 'no target contract', violations: [] };
  if (/^https?:/i.test(target.url)) return { status: 'n/a', detail: 'the live probe needs one connection that stays open; the target is an HTTP endpoint', violations: [] };
  const { table, rows: _rows, ...verdict } = await skewProbeVerdict(connect, { client: desktopContract(plan), target: contract, profile: plan.profile.codes });
  if (table) {
    testInfo.annotations.push({ type: SKEW_TABLE_ANNOTATION, description: table });
    await testInfo.attach('predicted-vs-observed.md', { body: table, contentType: 'text/markdown' });
  }
  return verdict;
};
