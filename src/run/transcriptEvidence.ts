import { type Evidence, noEvidence } from '../checks/evidence.js';
import type { TranscriptEntry } from '../client/transcript.js';

type Frame = Record<string, unknown>;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isFrame = (value: unknown): value is Frame => typeof value === 'object' && value !== null && !Array.isArray(value);
const frames = (value: unknown): Frame[] => (Array.isArray(value) ? value.filter(isFrame) : isFrame(value) ? [value] : []);

/**
 * What a live cell's connections saw, counted from its transcript: frames it sent, answers and events the target
 * sent back (the cell's judge reads its connections' answers and events), and server→client requests the harness
 * answered. A judge that counts what it judged more narrowly says so in its verdict (`CellVerdict.evidence`).
 */
export function transcriptEvidence(entries: readonly TranscriptEntry[]): Evidence {
  const evidence = noEvidence();
  const asked = new Set<string>();
  for (const entry of entries) {
    if (entry.dir === '--') continue;
    if (entry.dir === '>>') {
      evidence.framesSent++;
      for (const frame of frames(parsed(entry.text))) {
        const key = `${entry.conn}\u0000${JSON.stringify(frame['id'])}`;
        if (!('method' in frame) && asked.delete(key)) evidence.serverRequestsAnswered++;
      }
      continue;
    }
    for (const frame of frames(parsed(entry.text))) {
      const hasId = 'id' in frame && frame['id'] !== null;
      if (typeof frame['method'] === 'string') {
        if (hasId) asked.add(`${entry.conn}\u0000${JSON.stringify(frame['id'])}`);
        else evidence.eventsJudged++;
      } else if ('result' in frame || 'error' in frame) {
        evidence.answersJudged++;
      }
    }
  }
  return evidence;
}
