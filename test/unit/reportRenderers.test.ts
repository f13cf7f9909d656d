import { expect, test } from './helpers/test.js';
import fc from 'fast-check';
import { buildMatrix, type TestRecord } from '../../src/report/matrixModel.js';
import type { Matrix, MatrixRun } from '../../src/report/matrixTypes.js';
import { renderHtml } from '../../src/report/renderHtml.js';
import { parseMatrixJson, renderJson } from '../../src/report/renderJson.js';
import { renderJunit } from '../../src/report/renderJunit.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';

const RUN: MatrixRun = {
  target: 'wss://staging.example/api/ws?token=***',
  contracts: [{ title: 'Hermes session lifecycle', version: '2.3.0', path: 'profiles/hermes/contracts/session.json' }],
  seed: 424242,
};

function rec(method: string, check: string, outcome: TestRecord['outcome'], extra: Partial<TestRecord> = {}): TestRecord {
  const failed = outcome === 'unexpected';
  return {
    tags: [`@method:${method}`, `@check:${check}`],
    outcome,
    expectedStatus: 'passed',
    status: outcome === 'skipped' ? 'skipped' : failed ? 'failed' : 'passed',
    annotations: [],
    errors: failed ? ['Error: rejected'] : [],
    ...extra,
  };
}

function sample(): Matrix {
  return buildMatrix(
    [
      rec('session.create', 'params.valid-accepted', 'expected', { annotations: [{ type: 'contract-gate.reached', description: 'session.create' }] }),
      rec('session.close', 'params.valid-accepted', 'unexpected', {
        annotations: [
          { type: 'contract-gate.detail', description: 'code 4000 for a valid payload | path: session_id <script>alert(1)</script>' },
          { type: 'contract-gate.replay-file', description: 'replays/session.close-1.json' },
          { type: 'contract-gate.transcript-file', description: 'transcripts/session close.jsonl' },
        ],
      }),
      rec('session.resume', 'result.schema', 'expected', { expectedStatus: 'failed', status: 'failed', annotations: [{ type: 'contract-gate.baseline', description: 'GW-12' }] }),
      rec('session.resume', 'params.valid-accepted', 'unexpected', { expectedStatus: 'failed', errors: [] }),
      rec('session.create', 'params.unknown-key-tolerated', 'skipped', { annotations: [{ type: 'skip', description: 'closed model' }] }),
      rec('turn.started', 'event.envelope', 'skipped', { status: undefined }),
      rec('evil', 'result.schema', 'unexpected', { annotations: [{ type: 'contract-gate.transcript-file', description: 'javascript:alert(1)' }] }),
    ],
    RUN,
    '2026-01-01T00:00:00.000Z',
  );
}

test('JSON round-trips through the reader, which names the file and field of a bad matrix', () => {
  const matrix = sample();
  expect(parseMatrixJson(renderJson(matrix), 'matrix.json')).toEqual(matrix);
  expect(() => parseMatrixJson('[]', 'm.json')).toThrow(/matrix m.json: expected a JSON object/);
  const broken = { ...matrix, cells: [{ method: 'a', check: 'b', status: 'ok' }] };
  expect(() => parseMatrixJson(JSON.stringify(broken), 'm.json')).toThrow(/cells\[0\] must be/);
});

test('Markdown starts with the verdict in words and the run facts', () => {
  const markdown = renderMarkdown(sample());
  const [heading] = markdown.split('\n');
  expect(heading).toBe('## ✗ Contract gate FAIL: 2 checks fail, 1 baseline entry is stale (the check passes now: remove the entry).');
  expect(markdown).toContain('| Target | `wss://staging.example/api/ws?token=***` |');
  expect(markdown).toContain('| Contracts | Hermes session lifecycle 2.3.0 |');
  expect(markdown).toContain('| Seed | `424242` |');
  expect(markdown).toContain('| Coverage | 1/3 methods reached with a success (33%); unreached: `session.close`, `session.resume` |');
  expect(markdown).toContain('| Cells | 1 pass · 2 fail · 1 known · 1 stale · 1 n-a · 1 not-run · 1 pass with no evidence |');
});

test('Markdown failures give the detail, the replay command line and the transcript; pipes cannot break the table', () => {
  const markdown = renderMarkdown(sample());
  expect(markdown).toContain('- **✗** `session.close` × `params.valid-accepted`: code 4000 for a valid payload \\| path: session_id &lt;script&gt;alert(1)&lt;/script&gt;');
  expect(markdown).toContain('  - replay: `npx contract-gate replay replays/session.close-1.json`');
  expect(markdown).toContain('  - transcript: `transcripts/session close.jsonl`');
  expect(markdown).toContain('- **stale** `session.resume` × `params.valid-accepted`: baseline entry passes now');
  expect(markdown).toMatch(/<details><summary>Known failures \(baseline\) \(1\)<\/summary>[\s\S]*GW-12/);
  expect(markdown).toMatch(/<details><summary>Did not run \(1\)<\/summary>[\s\S]*turn\.started/);
  const row = markdown.split('\n').find((line) => line.startsWith('| `session.resume` |'));
  expect(row).toBe('| `session.resume` | stale |  | known |  |');
});

test('a passing run says so, with its caveats', () => {
  const matrix = buildMatrix([rec('a', 'result.schema', 'expected'), rec('b', 'result.schema', 'skipped', { status: undefined })], RUN, '2026-01-01T00:00:00.000Z');
  expect(renderMarkdown(matrix).split('\n')[0]).toBe('## ✓ Contract gate PASS: every check holds (1 check did not run).');
  const empty = buildMatrix([], { ...RUN, seed: null, shard: '2/4' }, '2026-01-01T00:00:00.000Z');
  const markdown = renderMarkdown(empty);
  expect(markdown).toContain('no test carried @method: and @check: tags');
  expect(markdown).toContain('| Seed | not set |');
  expect(markdown).toContain('| Shard | 2/4 (this shard only: merge the shards for the whole matrix) |');
});

test('property: the Markdown table has one row per subject and one column per check', () => {
  const method = fc.constantFrom('a', 'b.c', 'd|e', 'f`g', 'session.create');
  const check = fc.constantFrom('params.valid-accepted', 'result.schema', 'event.envelope', 'scenario.replay-epoch');
  const outcome = fc.constantFrom<TestRecord['outcome']>('expected', 'unexpected', 'skipped', 'flaky');
  fc.assert(
    fc.property(fc.array(fc.tuple(method, check, outcome), { minLength: 1, maxLength: 25 }), (rows) => {
      const matrix = buildMatrix(rows.map(([m, c, o]) => rec(m, c, o)), RUN, '2026-01-01T00:00:00.000Z');
      const lines = renderMarkdown(matrix).split('\n');
      const header = lines.findIndex((line) => line.startsWith('| subject |'));
      const body = lines.slice(header + 2, lines.indexOf('', header));
      expect(body).toHaveLength(new Set(rows.map(([m]) => m)).size);
      const columns = (line: string) => line.split(/(?<!\\)\|/).length;
      for (const line of body) expect(columns(line)).toBe(columns(lines[header] ?? ''));
    }),
  );
});

test('HTML is one self-contained page with a data-status attribute per cell', () => {
  const matrix = sample();
  const html = renderHtml(matrix);
  expect(html.match(/<td [^>]*data-status=/g)).toHaveLength(matrix.cells.length);
  expect(html.match(/data-status="fail"/g)).toHaveLength(2);
  expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);
  expect(html).not.toMatch(/https?:\/\//);
  expect(html).not.toContain('<script>alert(1)</script>');
  expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
});

test('HTML links failing cells to their transcript by relative path only', () => {
  const html = renderHtml(sample());
  expect(html).toContain('<a class="log" href="transcripts/session%20close.jsonl"');
  expect(html).not.toContain('href="javascript:');
  expect(html).toContain('data-replay="npx contract-gate replay replays/session.close-1.json"');
});

test('JUnit: a test case carries the time its tests took in seconds, a test suite the sum of its timed cases; an untimed case has none', () => {
  const matrix = buildMatrix(
    [
      rec('session.create', 'params.valid-accepted', 'expected', { durationMs: 1234 }),
      rec('session.create', 'result.schema', 'expected', { durationMs: 66 }),
      rec('session.create', 'result.schema', 'unexpected', { durationMs: 5 }),
      rec('session.close', 'params.valid-accepted', 'expected'),
    ],
    RUN,
    '2026-01-01T00:00:00.000Z',
  );
  const junit = renderJunit(matrix);
  expect(junit).toContain('<testsuite name="session.create" tests="2" failures="1" skipped="0" errors="0" time="1.305" ');
  expect(junit).toContain('<testcase name="session.create › params.valid-accepted" classname="params.valid-accepted" time="1.234">');
  expect(junit).toContain('<testcase name="session.create › result.schema" classname="result.schema" time="0.071">');
  expect(junit).toContain('<testsuite name="session.close" tests="1" failures="0" skipped="0" errors="0" timestamp=');
  expect(junit).toMatch(/<testcase name="session\.close › params\.valid-accepted" classname="params\.valid-accepted">/);
});

test('property: JUnit attributes carry any detail escaped: the five entities, no control character XML forbids, nothing else changed', () => {
  const unescape = (text: string): string => text.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[name] as string);
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '<', '>', '&', '"', "'", '\u0001', '\u000b', '\n', 'é', ';') }), (detail) => {
      const matrix = buildMatrix([rec('m', 'result.schema', 'unexpected', { annotations: [{ type: 'contract-gate.detail', description: detail }] })], RUN, '2026-01-01T00:00:00.000Z');
      const message = /<failure message="([^"]*)">/.exec(renderJunit(matrix))?.[1];
      const expected = (matrix.cells[0]?.detail ?? '').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
      if (message === undefined || unescape(message) !== expected || /[<>"'\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(message)) {
        expect({ message, expected }).toEqual({ message: 'escaped', expected });
      }
    }),
    { numRuns: 200, seed: 31 },
  );
});
