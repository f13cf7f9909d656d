import { expect, test } from './helpers/test.js';
import * as fc from 'fast-check';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clipText, MAX_KEPT_TEXT } from '../../src/client/clipText.js';
import { Redactor } from '../../src/client/redact.js';
import { renderTranscriptLine, shortenedRuns, type TranscriptEntry } from '../../src/client/transcript.js';
import { ConnectionLog, type ClientFrame, type ConnectionLogLimits } from '../../src/proxy/connectionLog.js';
import { ProxyWatch } from '../../src/proxy/proxyWatch.js';
import { loadContractSync } from '../../src/contracts/index.js';
import { resolveProfile } from '../../profiles/index.js';
import { SESSION_LIFECYCLE_CONTRACT } from '../../profiles/hermes/paths.js';
import { scratchDir } from './helpers/scratchDir.js';

/*
 * The proxy keeps each connection's transcript and the client's first frames in a byte buffer that spills to a file
 * (src/proxy/connectionLog.ts). What it gives back must be what a plain list of the same frames gives: the same
 * transcript, redacted and clipped, cut at the same entry, and the same client frames, whole, for the replay files.
 */

type Step = { kind: 'note'; text: string } | { kind: 'frame'; dir: '>>' | '<<'; text: string };

const SECRET = 'tok-s3cret';
const OPENED_AT = 1_000;

/** What the log must hold, kept the plain way: every step as a string, redacted and clipped when read. */
function expected(steps: readonly Step[], limits: ConnectionLogLimits, redactor: Redactor): { entries: TranscriptEntry[]; truncatedAt: number | undefined; replay: ClientFrame[] } {
  const entries: TranscriptEntry[] = [];
  const replay: ClientFrame[] = [];
  let chars = 0;
  let at = OPENED_AT;
  const full = (): boolean => entries.length >= limits.maxEntries || chars >= limits.maxChars;
  for (const step of steps) {
    at += 7;
    if (step.kind === 'frame' && step.dir === '>>' && replay.length < limits.maxClientFrames) replay.push({ text: step.text, at });
    if (full()) continue;
    const long = step.kind === 'frame' && step.text.length > MAX_KEPT_TEXT;
    chars += long ? MAX_KEPT_TEXT : step.text.length;
    const kept = step.kind === 'frame' && step.dir === '>>' && replay.at(-1)?.at === at;
    const text = long && !kept ? `${redactor.redact(step.text.slice(0, MAX_KEPT_TEXT))}… [cut: ${step.text.length} characters in all]` : clipText(redactor.redact(step.text));
    entries.push({ dir: step.kind === 'note' ? '--' : step.dir, conn: 'c1', at: at - OPENED_AT, text });
  }
  return { entries, truncatedAt: full() ? entries.length : undefined, replay };
}

function play(steps: readonly Step[], limits: ConnectionLogLimits, dir: string): ConnectionLog {
  let files = 0;
  const newFile = (): string => {
    mkdirSync(dir, { recursive: true });
    return join(dir, `${++files}.log`);
  };
  const log = new ConnectionLog(OPENED_AT, newFile, limits);
  let at = OPENED_AT;
  for (const [index, step] of steps.entries()) {
    at += 7;
    if (step.kind === 'note') log.note(at, step.text);
    else log.frame(step.dir, at, Buffer.from(step.text, 'utf8'), step.text);
    // A read half-way (a report is written while the proxy runs on) must not hide what comes after it.
    if (index === Math.floor(steps.length / 2)) log.transcript('c1', new Redactor([]));
  }
  return log;
}

/** Frame texts of every size the log handles differently: small, around its 4 KiB and 64 KiB buffers, beyond both. */
const frameText = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 6 },
  { arbitrary: fc.constantFrom(`{"token":"${SECRET}"}`, `ws://h/api/ws?token=${SECRET}&x=1`), weight: 1 },
  { arbitrary: fc.tuple(fc.constantFrom('a', 'é', '漢', '😀'), fc.integer({ min: 1_000, max: 40_000 })).map(([unit, count]) => unit.repeat(count)), weight: 1 },
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('frame' as const), dir: fc.constantFrom('>>' as const, '<<' as const), text: frameText }), weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('note' as const), text: fc.string({ maxLength: 30 }) }), weight: 1 },
);
const limits: fc.Arbitrary<ConnectionLogLimits> = fc.record({
  maxEntries: fc.integer({ min: 1, max: 60 }),
  maxChars: fc.integer({ min: 1, max: 400_000 }),
  maxClientFrames: fc.integer({ min: 0, max: 30 }),
});

test('the log gives back the transcript and the client frames a plain list of the same frames gives, however it spilled', () => {
  const root = scratchDir('contract-gate-connection-log');
  let runs = 0;
  try {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 50 }), limits, (steps, bounds) => {
        const dir = join(root, String(++runs));
        const redactor = new Redactor([SECRET]);
        const log = play(steps, bounds, dir);
        const want = expected(steps, bounds, redactor);
        expect(log.transcript('c1', redactor)).toEqual(want.entries);
        expect(log.replayFrames()).toEqual(want.replay);
        const lines = want.entries.map((entry) => shortenedRuns(renderTranscriptLine(entry)));
        if (want.truncatedAt !== undefined) lines.push(`-- transcript truncated at ${want.truncatedAt} entries`);
        expect(log.render('c1', redactor)).toBe(lines.join('\n') + (lines.length ? '\n' : ''));
        log.dispose();
        expect(existsSync(dir) ? readdirSync(dir) : [], 'dispose() leaves no file').toEqual([]);
      }),
      // Frames of up to 80,000 characters make shrinking slow: a failure is reported as found.
      { numRuns: 120, seed: 54, endOnFailure: true },
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a frame longer than a transcript line: the client frame is kept whole for the replay, the server frame only as its start, and each counts as a line', () => {
  const dir = scratchDir('contract-gate-connection-log-long');
  try {
    const long = `{"text":"${'x'.repeat(MAX_KEPT_TEXT + 500)}${SECRET}"}`;
    // Room for the two cut frames and the note after them, not for two whole frames.
    const bounds = { maxEntries: 10, maxChars: 2 * MAX_KEPT_TEXT + 10, maxClientFrames: 10 };
    const log = play([{ kind: 'frame', dir: '>>', text: long }, { kind: 'frame', dir: '<<', text: long }, { kind: 'note', text: 'after' }], bounds, dir);
    const redactor = new Redactor([SECRET]);
    expect(log.replayFrames().map((frame) => frame.text)).toEqual([long]);
    // The note gives the length of what was cut: the redacted frame, or the frame as received.
    expect(log.transcript('c1', redactor).map((entry) => entry.text)).toEqual([clipText(redactor.redact(long)), `${long.slice(0, MAX_KEPT_TEXT)}… [cut: ${long.length} characters in all]`, 'after']);
    expect(log.truncated).toBe(false);
    expect(readdirSync(dir), "both went to the connection's file").toHaveLength(1);
    log.dispose();
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a busy connection keeps at most one 64 KiB buffer in memory: the rest is in its file', () => {
  const dir = scratchDir('contract-gate-connection-log-busy');
  try {
    const frame = `{"jsonrpc":"2.0","method":"event","params":{"type":"message.delta","payload":{"text":"${'y'.repeat(250)}"}}}`;
    const log = play(Array.from({ length: 5_000 }, (): Step => ({ kind: 'frame', dir: '<<', text: frame })), { maxEntries: 20_000, maxChars: 1e9, maxClientFrames: 0 }, dir);
    const [file] = readdirSync(dir);
    const kept = 5_000 * (Buffer.byteLength(frame) + 17);
    expect(statSync(join(dir, file as string)).size, 'all but the last 64 KiB in the file').toBeGreaterThan(kept - 64 * 1024);
    expect(log.transcript('c1', new Redactor([])).map((entry) => entry.text)).toEqual(Array.from({ length: 5_000 }, () => frame));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the watch removes a connection's file when it closes without findings, and its folder when disposed", () => {
  const root = scratchDir('contract-gate-proxy-watch-logs');
  try {
    const server = loadContractSync(SESSION_LIFECYCLE_CONTRACT);
    const watch = new ProxyWatch({ server, profile: resolveProfile(undefined, server).codes, logRoot: root });
    const files = (): string[] => readdirSync(root).flatMap((dir) => readdirSync(join(root, dir)));
    watch.opened('c1', { requestUrl: '/api/ws', protocol: '', secrets: [] });
    const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session.create', params: { cwd: `/${'d'.repeat(70_000)}` } });
    watch.frame('c1', 'client', Buffer.from(request), false);
    expect(files(), 'a frame larger than the buffer spilled').toHaveLength(1);
    watch.closed('c1', 'client', 1000, '');
    expect(watch.findingCount).toBe(0);
    expect(files(), 'nothing kept of a connection without findings').toEqual([]);
    watch.dispose();
    expect(readdirSync(root)).toEqual([]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a file that cannot be written ends the log where it was and the transcript says so; what the buffer held is kept', () => {
  const log = new ConnectionLog(OPENED_AT, () => join('/nonexistent-contract-gate-folder', 'c1.log'), { maxEntries: 1_000, maxChars: 1e9, maxClientFrames: 1_000 });
  const small = '{"jsonrpc":"2.0","id":1,"method":"session.list"}';
  log.frame('>>', OPENED_AT + 1, Buffer.from(small), small);
  const big = `{"text":"${'z'.repeat(70_000)}"}`;
  log.frame('>>', OPENED_AT + 2, Buffer.from(big), big);
  log.frame('>>', OPENED_AT + 3, Buffer.from(small), small);
  expect(log.replayFrames().map((frame) => frame.text)).toEqual([small]);
  const rendered = log.render('c1', new Redactor([]));
  expect(rendered.split('\n')[0]).toBe(`>> [c1 +1ms] ${small}`);
  expect(rendered).toMatch(/^-- transcript cut short: its file could not be written \(ENOENT.*\): later frames were judged, not kept$/m);
});

test('a log folder that cannot be made is said once, live, and the frames are still judged', () => {
  const root = scratchDir('contract-gate-proxy-unwritable');
  try {
    const notAFolder = join(root, 'file');
    writeFileSync(notAFolder, '');
    const server = loadContractSync(SESSION_LIFECYCLE_CONTRACT);
    const live: string[] = [];
    const watch = new ProxyWatch({ server, profile: resolveProfile(undefined, server).codes, logRoot: join(notAFolder, 'logs'), live: (line) => live.push(line) });
    for (const conn of ['c1', 'c2']) {
      watch.opened(conn, { requestUrl: '/api/ws', protocol: '', secrets: [] });
      const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session.create', params: { cwd: `/${'d'.repeat(70_000)}` } });
      watch.frame(conn, 'client', Buffer.from(request), false);
      watch.frame(conn, 'server', Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"session_id":42}}'), false);
    }
    expect(live.filter((line) => / c1 its log stopped: its file could not be written \(ENOTDIR.*; its transcript and replay files end there$/.test(line))).toHaveLength(1);
    expect(live.filter((line) => line.includes('its log stopped'))).toHaveLength(1);
    // The answers were judged all the same: a session_id that is not a string breaks the result's schema.
    expect(watch.ledger.all.map((finding) => `${finding.first.subject} ${finding.first.check}`)).toContain('session.create result.schema');
    expect(watch.connections.get('c1')?.log.render('c1', watch.redactor)).toMatch(/^-- transcript cut short: its file could not be written/m);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
