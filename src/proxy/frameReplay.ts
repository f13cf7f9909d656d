import { WebSocket } from 'ws';
import type { Profile } from '../profile/profile.js';
import { violation, type Violation } from '../checks/violation.js';
import type { Contract } from '../contracts/contractModel.js';
import { isJsonObject } from '../../core/index.js';
import type { FrameFinding } from './findings.js';
import type { FrameReplayFile } from './findingReplay.js';
import { FrameStreamJudge } from './frameJudge.js';

export interface FrameReplayOutcome {
  reproduced: boolean;
  violations: Violation[];
  /** `>>` / `<<` lines of the replayed connection. */
  lines: string[];
}

const MAX_PAUSE_MS = 2_000;
const SETTLE_MARGIN_MS = 1_000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Pairs identifier strings of the recorded answer with the target's: `session_id`, `stored_session_id`, `id`, … */
function learnIds(recorded: unknown, fresh: unknown, ids: Map<string, string>, key = ''): void {
  if (typeof recorded === 'string' && typeof fresh === 'string') {
    if (recorded !== fresh && /(^|_)id$/.test(key)) ids.set(recorded, fresh);
    return;
  }
  if (Array.isArray(recorded) && Array.isArray(fresh)) {
    recorded.forEach((item, index) => learnIds(item, fresh[index], ids, key));
    return;
  }
  if (isJsonObject(recorded) && isJsonObject(fresh)) for (const [name, value] of Object.entries(recorded)) learnIds(value, fresh[name], ids, name);
}

function parsed(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const translate = (text: string, ids: Map<string, string>): string => {
  let out = text;
  for (const [recorded, fresh] of ids) out = out.split(JSON.stringify(recorded)).join(JSON.stringify(fresh));
  return out;
};

/**
 * Re-sends the client's recorded frames to `url` over one connection, pacing them as recorded and waiting for each
 * request's answer, and judges both directions with the proxy's judge: reproduced when the recorded subject × check
 * fails again.
 */
export async function runFrameReplay(file: FrameReplayFile, server: Contract, profile: Profile, url: string, timeoutMs: number): Promise<FrameReplayOutcome> {
  const judge = new FrameStreamJudge({ server, profile: profile.codes, dialect: profile.wire.dialect, inlineMethods: profile.wire.inlineMethods });
  const findings: FrameFinding[] = [];
  const lines: string[] = [];
  const answers = new Map<string, string>();
  const socket = new WebSocket(url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  judge.open('r1');
  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    const text = (Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer)).toString('utf8');
    lines.push(`<< ${text}`);
    const frame = parsed(text);
    if (frame && !('method' in frame) && 'id' in frame) answers.set(JSON.stringify(frame['id']), text);
    findings.push(...judge.frame('r1', 'server', text, Date.now()));
  });
  const reproduced = (): boolean => findings.some((f) => f.subject === file.expect.subject && f.check === file.expect.check);
  const ids = new Map<string, string>();
  try {
    for (const frame of file.frames) {
      await sleep(Math.min(frame.afterMs, MAX_PAUSE_MS));
      const text = translate(frame.text, ids);
      const request = parsed(text);
      socket.send(text);
      lines.push(`>> ${text}`);
      findings.push(...judge.frame('r1', 'client', text, Date.now()));
      if (!request || typeof request['method'] !== 'string' || !('id' in request)) continue;
      const key = JSON.stringify(request['id']);
      const deadline = Date.now() + timeoutMs;
      while (!answers.has(key) && Date.now() < deadline && socket.readyState === WebSocket.OPEN) await sleep(5);
      learnIds(parsed(frame.answer)?.['result'], parsed(answers.get(key))?.['result'], ids);
    }
    const deadline = Date.now() + Math.min(file.settleMs, 10_000) + SETTLE_MARGIN_MS;
    while (!reproduced() && Date.now() < deadline && socket.readyState === WebSocket.OPEN) await sleep(10);
  } finally {
    socket.close();
  }
  const matching = findings.filter((f) => f.subject === file.expect.subject && f.check === file.expect.check);
  return { reproduced: matching.length > 0, violations: matching.map((f) => violation(f.check, f.message)), lines };
}
