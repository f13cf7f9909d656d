/**
 * What our engine did on the wire, in order, so that a bare client can do the same: connections opened (and
 * whether `gateway.ready` was awaited), requests sent with the answers they got, events awaited, connections
 * closed. `replayOf` turns it into steps a bare client can run against a fresh gateway: ids the engine's
 * gateway issued (session ids, stored keys, saved paths) are learnt from the bare client's own answers.
 */

export type ScriptStep =
  | { kind: 'open'; waitsForReady: boolean }
  | { kind: 'call'; text: string; response: Record<string, unknown> | undefined }
  | { kind: 'wait'; type: string; sessionId: string | undefined }
  | { kind: 'close' };

/** A string the engine's gateway issued in an answer, and where the bare client finds its own value of it. */
interface Learnt {
  value: string;
  path: Array<string | number>;
}

/** Text with holes where issued ids go: `parts[0] + ids[0] + parts[1] + …`. */
interface Template {
  parts: string[];
  ids: string[];
}

export type ReplayStep =
  | { kind: 'open'; waitsForReady: boolean }
  | { kind: 'call'; id: string; request: Template; learns: Learnt[] }
  | { kind: 'wait'; type: string; sessionId: string | undefined }
  | { kind: 'close' };

export interface Replay {
  steps: ReplayStep[];
  calls: number;
  /** What the engine's gateway answered each call ('result' or the error code), for comparing with the replay. */
  outcomes: string[];
}

/** Issued values shorter than this are too likely to be ordinary data (`"0x0"`, `"ok"`). */
const MIN_ID_LENGTH = 6;

export function outcomeKind(frame: Record<string, unknown> | undefined): string {
  if (!frame) return 'none';
  if ('error' in frame) {
    const error = frame['error'];
    return `error ${typeof error === 'object' && error !== null ? String((error as { code?: unknown }).code) : '?'}`;
  }
  return 'result' in frame ? 'result' : 'malformed';
}

function stringLeaves(value: unknown, path: Array<string | number>, out: Learnt[], depth = 0): void {
  if (typeof value === 'string') {
    if (value.length >= MIN_ID_LENGTH) out.push({ value, path: [...path] });
    return;
  }
  if (depth > 6 || typeof value !== 'object' || value === null) return;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  for (const [key, item] of entries) {
    path.push(key);
    stringLeaves(item, path, out, depth + 1);
    path.pop();
  }
}

function templateOf(text: string, issued: ReadonlySet<string>): Template {
  const leaves: Learnt[] = [];
  stringLeaves((JSON.parse(text) as { params?: unknown }).params, [], leaves);
  const quoted = [...new Set(leaves.map((leaf) => leaf.value).filter((value) => issued.has(value)))].map((id) => ({ id, text: JSON.stringify(id) }));
  const template: Template = { parts: [], ids: [] };
  let cursor = 0;
  for (;;) {
    let next: { at: number; id: string; length: number } | undefined;
    for (const { id, text: literal } of quoted) {
      const at = text.indexOf(literal, cursor);
      if (at >= 0 && (!next || at < next.at)) next = { at, id, length: literal.length };
    }
    if (!next) break;
    // The quotes stay in the text; fill() puts the escaped value between them.
    template.parts.push(text.slice(cursor, next.at + 1));
    template.ids.push(next.id);
    cursor = next.at + next.length - 1;
  }
  template.parts.push(text.slice(cursor));
  return template;
}

/**
 * A string of an answer's result is an issued id when a later request carries it whole and no earlier request
 * did (so the client could only have learnt it from that answer).
 */
export function replayOf(script: readonly ScriptStep[]): Replay {
  const sent = new Set<string>();
  const candidates = new Map<string, { step: ReplayStep & { kind: 'call' }; path: Array<string | number> }>();
  const issued = new Set<string>();
  const steps: ReplayStep[] = [];
  const outcomes: string[] = [];
  const claim = (value: string | undefined): void => {
    const source = value === undefined ? undefined : candidates.get(value);
    if (!source || value === undefined || issued.has(value)) return;
    issued.add(value);
    source.step.learns.push({ value, path: source.path });
  };
  for (const step of script) {
    if (step.kind === 'call') {
      const request = JSON.parse(step.text) as { id?: unknown; params?: unknown };
      const leaves: Learnt[] = [];
      stringLeaves(request.params, [], leaves);
      for (const leaf of leaves) claim(leaf.value);
      for (const leaf of leaves) sent.add(leaf.value);
      const call: ReplayStep & { kind: 'call' } = { kind: 'call', id: JSON.stringify(request.id), request: { parts: [step.text], ids: [] }, learns: [] };
      const answered: Learnt[] = [];
      stringLeaves(step.response?.['result'], [], answered);
      for (const leaf of answered) if (!sent.has(leaf.value) && !candidates.has(leaf.value)) candidates.set(leaf.value, { step: call, path: leaf.path });
      steps.push(call);
      outcomes.push(outcomeKind(step.response));
    } else {
      if (step.kind === 'wait') claim(step.sessionId);
      steps.push(step);
    }
  }
  for (const [index, step] of script.entries()) {
    const replayed = steps[index];
    if (step.kind === 'call' && replayed?.kind === 'call') replayed.request = templateOf(step.text, issued);
  }
  return { steps, calls: outcomes.length, outcomes };
}

/** The request text with the ids this client was issued in place of the engine's. */
export function fill(template: Template, learnt: ReadonlyMap<string, string>): string {
  if (template.ids.length === 0) return template.parts[0] as string;
  let text = template.parts[0] as string;
  for (let i = 0; i < template.ids.length; i++) {
    const id = template.ids[i] as string;
    text += JSON.stringify(learnt.get(id) ?? id).slice(1, -1) + (template.parts[i + 1] as string);
  }
  return text;
}

/** Reads the bare client's own values of what a call's answer issued. */
export function learn(step: ReplayStep & { kind: 'call' }, frame: Record<string, unknown>, learnt: Map<string, string>): void {
  for (const { value, path } of step.learns) {
    let node: unknown = frame['result'];
    for (const key of path) node = typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[key] : undefined;
    if (typeof node === 'string') learnt.set(value, node);
  }
}
