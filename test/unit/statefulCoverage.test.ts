import { expect, test } from './helpers/test.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANSWER_REQUEST_COMMAND, HERMES_COMMANDS } from '../../profiles/hermes/stateful/hermesCommands.js';
import { coverageGaps, hermesDocumentMethods, modelledMethods, STATEFUL_EXCLUSIONS } from '../../profiles/hermes/stateful/statefulCoverage.js';
import { renderStatefulDocs } from '../../profiles/hermes/stateful/statefulDocs.js';

/*
 * Stateful coverage by the documents: every method of every Hermes document is either called by a command of the
 * session model or excluded with a reason (profiles/hermes/stateful/statefulExclusions.json), and docs/stateful.md
 * lists both as `npm run docs:stateful` renders them.
 */

const REPO = join(import.meta.dirname, '..', '..');

test('every method of every Hermes document is called by a command of the session model or excluded with a reason', () => {
  const documents = hermesDocumentMethods();
  expect([...documents.keys()]).toEqual(expect.arrayContaining(['gateway.openrpc.json', 'session-lifecycle.openrpc.json', 'session-hooks.openrpc.json']));
  const gaps = coverageGaps(documents);
  expect(gaps.unclassified, 'methods neither modelled nor excluded: add a command that calls them, or their line with a reason to statefulExclusions.json').toEqual([]);
  expect(gaps.contradictory, 'methods both called by a command and excluded').toEqual([]);
  expect(gaps.stale, 'exclusions of methods no document declares').toEqual([]);
  for (const [method, reason] of Object.entries(STATEFUL_EXCLUSIONS)) expect(reason.length, `the reason of ${method}`).toBeGreaterThan(30);
});

test('the session lifecycle methods that read or change session state are all modelled', () => {
  const modelled = modelledMethods();
  const lifecycle = hermesDocumentMethods().get('session-lifecycle.openrpc.json') ?? [];
  const readers = ['session.create', 'prompt.submit', 'session.close', 'session.resume', 'session.activate', 'session.delete', 'session.list', 'session.active_list', 'session.most_recent', 'session.title', 'session.branch', 'session.branch_whole', 'session.branch_stored', 'session.history', 'session.usage', 'session.status', 'session.context_breakdown', 'terminal.resize', 'session.undo', 'session.interrupt', 'session.redirect', 'session.steer', 'session.events.since'];
  expect(readers.filter((method) => !lifecycle.includes(method))).toEqual([]);
  expect(readers.filter((method) => !modelled.has(method))).toEqual([]);
  expect(modelled.get('session.reset')).toEqual(['reset']);
});

test('a method a document adds is reported until it is modelled or excluded; every method a command calls is declared', () => {
  const documents = new Map(hermesDocumentMethods());
  documents.set('newer.openrpc.json', [...(documents.get('session-lifecycle.openrpc.json') ?? []), 'session.rewind']);
  expect(coverageGaps(documents).unclassified).toEqual(['session.rewind']);
  const declared = new Set([...hermesDocumentMethods().values()].flat());
  const calls = [...HERMES_COMMANDS, ANSWER_REQUEST_COMMAND].flatMap((command) => command.calls ?? []);
  expect(calls.filter((method) => !declared.has(method))).toEqual([]);
});

test('docs/stateful.md is what `npm run docs:stateful` writes from the commands, the rules and the exclusions', () => {
  const docs = readFileSync(join(REPO, 'docs', 'stateful.md'), 'utf8');
  expect(docs, 'docs/stateful.md is stale: run npm run docs:stateful').toBe(renderStatefulDocs());
  for (const method of Object.keys(STATEFUL_EXCLUSIONS)) expect(docs).toContain(`| \`${method}\` |`);
  for (const method of modelledMethods().keys()) expect(docs).toContain(`| \`${method}\` |`);
});
