import { expect, test } from './helpers/test.js';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Suite } from '@playwright/test/reporter';
import { FileSystemWriter, type Writer } from 'allure-js-commons/sdk/reporter';
import AllureResultsReporter, { PlainResultsWriter } from '../../reporters/allureResults.js';
import { scratchDir } from './helpers/scratchDir.js';

/*
 * The Playwright runner's Allure results go through allure-playwright with a writer that does not sync each file to
 * disk. The files must be the ones allure-playwright's own writer makes, name for name and byte for byte, and the
 * reporter must really use it.
 */

function writeEveryKind(writer: Writer, attachmentSource: string): void {
  const result = { uuid: 'b1946ac9-2bf0-4f5e-9a4e-4f3b2d1c0a99', name: 'session.create × result.schema', status: 'passed', labels: [{ name: 'epic', value: 'methods' }] };
  writer.writeResult(result as unknown as Parameters<Writer['writeResult']>[0]);
  writer.writeGroup({ uuid: '0c7f3e2a-9d41-4e7b-8f0a-2b6c5d4e3f21', name: 'prepare', children: [result.uuid], befores: [], afters: [] } as unknown as Parameters<Writer['writeGroup']>[0]);
  writer.writeAttachment('e3b0c442-attachment.txt', Buffer.from('a transcript line\n'));
  writer.writeAttachmentFromPath('5d41402a-attachment.png', attachmentSource);
  writer.writeEnvironmentInfo({ 'contract-gate': '0.1.0', 'a key=with: specials': 'a value\nover two lines', skipped: undefined } as unknown as Parameters<Writer['writeEnvironmentInfo']>[0]);
  writer.writeCategoriesDefinitions([{ name: 'contract failures', matchedStatuses: ['failed'] }] as unknown as Parameters<Writer['writeCategoriesDefinitions']>[0]);
  writer.writeGlobals('globals.json', { attachments: [], errors: [{ message: 'a global error' }] } as unknown as Parameters<Writer['writeGlobals']>[1]);
}

function filesOf(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).sort().map((name) => [name, readFileSync(join(dir, name), 'base64')]));
}

test("the plain writer makes allure-playwright's files, name for name and byte for byte", () => {
  const root = scratchDir('contract-gate-allure-writer');
  const source = join(root, 'screenshot.png');
  writeFileSync(source, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]));
  writeEveryKind(new FileSystemWriter({ resultsDir: join(root, 'allure', 'results') }), source);
  writeEveryKind(new PlainResultsWriter(join(root, 'plain', 'results')), source);
  const theirs = filesOf(join(root, 'allure', 'results'));
  expect(Object.keys(theirs)).toHaveLength(7);
  expect(filesOf(join(root, 'plain', 'results'))).toEqual(theirs);
});

test('the reporter writes through the plain writer, into the results folder of its options', () => {
  const reporter = new AllureResultsReporter({ resultsDir: '/tmp/contract-gate-results-of-the-options', detail: false });
  reporter.onBegin({ allTests: () => [], suites: [] } as unknown as Suite);
  const writer = (reporter as unknown as { allureRuntime?: { writer?: unknown } }).allureRuntime?.writer;
  expect(writer, "allure-playwright's runtime keeps its writer where the reporter replaces it").toBeInstanceOf(PlainResultsWriter);
  expect((writer as unknown as { resultsDir: string }).resultsDir).toBe('/tmp/contract-gate-results-of-the-options');
});
