import { expect, test } from './helpers/test.js';
import * as fc from 'fast-check';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { clipText, MAX_KEPT_TEXT } from '../../src/client/clipText.js';
import { Redactor } from '../../src/client/redact.js';
import { LONG_RUN, shortenedRuns, Transcript, type TranscriptDirection } from '../../src/client/transcript.js';
import { fileTranscriptSink, type TranscriptSink } from '../../src/client/transcriptSink.js';
import { protocolRig } from './helpers/protocolFakes.js';
import { scratchDir } from './helpers/scratchDir.js';
import { expectIs } from './helpers/fastExpect.js';

function memorySink(): TranscriptSink & { text: string; closed: boolean } {
  return {
    text: '',
    closed: false,
    write(text) {
      this.text += text;
    },
    close() {
      this.closed = true;
    },
  };
}

/** The same entries, at the same times, into any transcript. */
function play(transcript: Transcript, time: { now: number }, count: number): void {
  const dirs: TranscriptDirection[] = ['>>', '<<', '--'];
  for (let i = 0; i < count; i++) {
    time.now += 3;
    transcript.record(dirs[i % 3] as TranscriptDirection, `c${i % 2}`, i % 5 === 0 ? `frame ${i} tok-1\n` : `frame ${i} ${'y'.repeat(i)}`);
  }
}

test('a streaming transcript writes exactly what render() would, and keeps only the last N entries', () => {
  const time = { now: 0 };
  const whole = new Transcript(new Redactor(['tok-1']), 20_000, 64 * 1024 * 1024, { now: () => time.now });
  const sink = memorySink();
  const streamed = new Transcript(new Redactor(['tok-1']), 20_000, 64 * 1024 * 1024, { now: () => time.now, sink, keepLast: 3 });
  const start = time.now;
  play(whole, time, 50);
  time.now = start;
  play(streamed, time, 50);
  expect(sink.text).toBe(whole.render());
  expect(sink.text).not.toContain('tok-1');
  expect(streamed.entries).toHaveLength(3);
  expect(streamed.render()).toBe(whole.render().split('\n').slice(-4).join('\n'));
  streamed.close();
  expect(sink.closed).toBe(true);
});

test('property: a written line shortens each run of one character from LONG_RUN on to a note of its length, and nothing else', () => {
  // Text without the note's own characters, so that the notes can be expanded back unambiguously.
  const piece = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'x', '"', '\\', 'é', ' ', '{'), maxLength: 40 }), fc.tuple(fc.constantFrom('x', 'a', '"', 'é'), fc.integer({ min: 1, max: 3 * LONG_RUN })).map(([char, n]) => char.repeat(n)));
  const expand = (line: string): string => line.replace(/(.)\1{63}…\[([\d,]+) more ("(?:[^"\\]|\\.)*")\]/g, (_, char: string, more: string) => char.repeat(64 + Number(more.replaceAll(',', ''))));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const line = pieces.join('');
      const written = shortenedRuns(line);
      const longRun = new RegExp(`([^])\\1{${LONG_RUN - 1}}`).test(line);
      expectIs(expand(written), line, 'expanding the notes gives the line back');
      expectIs(written === line, !longRun, 'shortened exactly when a run is long');
      if (longRun) expectIs(written.length < line.length, true, 'shorter');
    }),
    { numRuns: 300, seed: 53 },
  );
});

test('the note groups its count by thousands, as en-US numbers are written', () => {
  for (const length of [LONG_RUN, LONG_RUN + 999, 65_536, 1_234_567 + 64]) {
    const more = /…\[([\d,]+) more "y"\]$/.exec(shortenedRuns('y'.repeat(length)))?.[1];
    expect(more, `a run of ${length}`).toBe((length - 64).toLocaleString('en-US'));
  }
});

test("a 64 KiB string the harness sent is a note of its length in the file and in render(); the entry keeps it whole", () => {
  const sink = memorySink();
  const transcript = new Transcript(new Redactor([]), 20_000, 64 * 1024 * 1024, { now: () => 0, sink, keepLast: 5 });
  const frame = JSON.stringify({ jsonrpc: '2.0', id: 'r4', method: 'agents.list', params: { profile: 'x'.repeat(65_536), session_id: 'ab12' } });
  transcript.record('>>', 'm1', frame);
  expect(sink.text).toBe(`>> [m1 +0ms] {"jsonrpc":"2.0","id":"r4","method":"agents.list","params":{"profile":"${'x'.repeat(64)}…[65,472 more "x"]","session_id":"ab12"}}\n`);
  expect(transcript.render()).toBe(sink.text);
  expect(transcript.entries[0]?.text).toBe(frame);
});

test('the truncation line is written once, where render() puts it, and nothing after it', () => {
  const time = { now: 0 };
  const whole = new Transcript(new Redactor([]), 10, 64 * 1024 * 1024, { now: () => time.now });
  const sink = memorySink();
  const streamed = new Transcript(new Redactor([]), 10, 64 * 1024 * 1024, { now: () => time.now, sink });
  play(whole, time, 25);
  time.now = 0;
  play(streamed, time, 25);
  expect(whole.render()).toContain('-- transcript truncated at 10 entries\n');
  expect(sink.text).toBe(whole.render());
  expect(streamed.entries).toEqual([]);
  expect(streamed.render()).toBe('-- transcript truncated at 10 entries\n');
});

test('the file sink appends as entries arrive', () => {
  const dir = scratchDir('client-transcript');
  try {
    const path = join(dir, 't.txt');
    const transcript = new Transcript(new Redactor([]), 20_000, 64 * 1024 * 1024, { sink: fileTranscriptSink(path), now: () => 0 });
    transcript.record('>>', 'c1', '{"id":1}');
    expect(readFileSync(path, 'utf8')).toBe('>> [c1 +0ms] {"id":1}\n');
    transcript.record('<<', 'c1', '{"id":1,"result":2}');
    transcript.close();
    transcript.close();
    expect(readFileSync(path, 'utf8')).toBe('>> [c1 +0ms] {"id":1}\n<< [c1 +0ms] {"id":1,"result":2}\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a buffered file sink writes once its buffer is full, and the rest on close', () => {
  const dir = scratchDir('client-transcript');
  try {
    const path = join(dir, 't.txt');
    const transcript = new Transcript(new Redactor([]), 20_000, 64 * 1024 * 1024, { sink: fileTranscriptSink(path, { bufferChars: 40 }), now: () => 0 });
    transcript.record('>>', 'c1', '{"id":1}');
    expect(readFileSync(path, 'utf8')).toBe('');
    transcript.record('<<', 'c1', '{"id":1,"result":2}');
    expect(readFileSync(path, 'utf8')).toBe('>> [c1 +0ms] {"id":1}\n<< [c1 +0ms] {"id":1,"result":2}\n');
    transcript.record('>>', 'c1', '{"id":2}');
    transcript.close();
    expect(readFileSync(path, 'utf8')).toBe('>> [c1 +0ms] {"id":1}\n<< [c1 +0ms] {"id":1,"result":2}\n>> [c1 +0ms] {"id":2}\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('secrets added later are redacted from then on', () => {
  const transcript = new Transcript(new Redactor(['a-token']));
  transcript.addSecrets(['ticket-77']);
  transcript.record('>>', 'c1', 'a-token ticket-77 plain');
  expect(transcript.entries[0]?.text).toBe('*** *** plain');
});

/** The redaction as it reads in full: every pattern run on every text, no marker scans first. */
function redactInFull(secrets: string[], text: string): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out.replace(/([?&](?:token|ticket|internal)=)[^&#\s"']+/gi, '$1***').replace(/([\w.-]*?-ticket\.)[^,\s"']+/g, '$1***');
}

test('redaction finds every credential parameter and ticket its patterns find, in any text', () => {
  // Pieces that make near misses likely: names in any case, the Kelvin sign (it lower-cases to k), markers.
  const piece = fc.constantFrom('token', 'TOKEN', 'ToKeN', 'ticket', 'TICKET', 'internal', 'Internal', 'to\u212Aen', 'tok', 'en', '?', '&', '=', '#', ' ', '"', 'x', 'é', '\u{1F600}', 'hermes-gateway-ticket.', 'sec ret', 'sec%20ret');
  const text = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(''));
  fc.assert(
    fc.property(text, fc.boolean(), (value, withSecret) => {
      const secrets = withSecret ? ['sec ret'] : [];
      expectIs(new Redactor(secrets).redact(value), redactInFull(secrets, value));
    }),
    { numRuns: 400 },
  );
});

test('a long received frame is cut once: its transcript entry and its exchange keep the same text', async () => {
  const { protocol, transport, transcript } = protocolRig();
  const call = protocol.call('m', {});
  const long = JSON.stringify({ jsonrpc: '2.0', id: 'r1', result: 'x'.repeat(MAX_KEPT_TEXT + 10) });
  transport.receive(long);
  const exchange = await call;
  expect(exchange.responseText).toBe(clipText(long));
  expect(transcript.entries[1]?.text).toBe(clipText(long));
  expect(transcript.entries[1]?.text).toBe(exchange.responseText);
});

test('a long received frame with a secret: the transcript keeps it redacted, the exchange keeps the answer as it came', async () => {
  const { protocol, transport, transcript } = protocolRig({ secrets: ['tok-9'] });
  const call = protocol.call('m', {});
  const long = JSON.stringify({ jsonrpc: '2.0', id: 'r1', result: `tok-9 ${'x'.repeat(MAX_KEPT_TEXT)}` });
  transport.receive(long);
  const exchange = await call;
  expect(exchange.responseText).toBe(clipText(long));
  expect(transcript.entries[1]?.text).toBe(clipText(long.replace('tok-9', '***')));
  expect(transcript.entries[1]?.text.startsWith('{"jsonrpc":"2.0","id":"r1","result":"*** xxx')).toBe(true);
});
