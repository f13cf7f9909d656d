import type { CodeProfile } from '../../../src/checks/codeProfile.js';
import type { SkewReport } from '../../../src/skew/index.js';
import { desktopCreateParams, predictedUnknownKeys } from './topologyScenarios.js';

/** What the remote-lane page shows once settled. */
export interface PageReadout {
  /** `accepted`, `out-of-sync`, `error`, or the state it was stuck in. */
  state: string;
  draftVisible: boolean;
  sessionId: string;
  bannerVisible: boolean;
  bannerText: string;
  bannerMessage: string;
  errorText: string;
}

export interface PageExpectation {
  /** Keys of the desktop's create the analyser predicts the backend rejects (empty: the draft must be accepted). */
  rejectedPaths: string[];
  /** `client vX → server vY`. */
  sides: string;
}

export function pageExpectation(report: SkewReport): PageExpectation {
  return {
    rejectedPaths: predictedUnknownKeys(report, 'session.create', Object.keys(desktopCreateParams())).map((f) => f.path),
    sides: `client v${report.client.version} → server v${report.server.version}`,
  };
}

const OUT_OF_SYNC = /out of sync/i;

/** Judges the page against the prediction: the accepted draft with a session id, or the out-of-sync banner naming the predicted key. */
export function judgeRemoteLanePage(shown: PageReadout, expected: PageExpectation, profile: CodeProfile): string[] {
  const problems: string[] = [];
  const seen = shown.state === 'accepted' ? `"draft accepted" (session ${shown.sessionId})` : shown.state === 'out-of-sync' ? `the out-of-sync banner ("${shown.bannerMessage}")` : `state ${shown.state}${shown.errorText ? ` ("${shown.errorText}")` : ''}`;
  if (expected.rejectedPaths.length === 0) {
    if (shown.state !== 'accepted') problems.push(`the analyser predicts that the desktop's create is accepted (${expected.sides}); the page shows ${seen}`);
    else {
      if (!shown.draftVisible) problems.push('the page settled as accepted but the draft is not visible');
      if (shown.sessionId === '') problems.push('the page shows "draft accepted" without a session id');
      if (shown.bannerVisible) problems.push('the page shows the out-of-sync banner beside an accepted draft');
    }
    return problems;
  }
  if (shown.state !== 'out-of-sync') {
    problems.push(`the analyser predicts a rejection naming ${expected.rejectedPaths.join(' or ')} (${expected.sides}); the page shows ${seen}`);
    return problems;
  }
  if (!shown.bannerVisible || !OUT_OF_SYNC.test(shown.bannerText)) problems.push(`the page settled as out-of-sync but no visible "out of sync" banner says so (banner text: "${shown.bannerText}")`);
  if (!expected.rejectedPaths.some((path) => profile.unknownKeyMessageMatches('session.create', path, shown.bannerMessage, undefined))) {
    problems.push(`the banner's error message "${shown.bannerMessage}" does not name ${expected.rejectedPaths.join(' or ')}`);
  }
  if (shown.draftVisible) problems.push('the page shows an accepted draft beside the out-of-sync banner');
  return problems;
}
