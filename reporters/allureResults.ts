import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Suite } from '@playwright/test/reporter';
import { AllureReporter } from 'allure-playwright';
import { stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';

/**
 * allure-playwright's results, written as plain files. Its own writer syncs every file to disk before renaming it into
 * place (a temporary file, `fsync`, `rename`, per result and attachment): a run of a 278-method document writes
 * about 3,300 of them, and on a busy disk each sync waits for the whole device. Results are a report read after the
 * run, not data to keep through a power cut, so this writer leaves the flushing to the system. What is written, and
 * where, is allure-playwright's.
 */
export class PlainResultsWriter implements Writer {
  private made = false;

  constructor(private readonly resultsDir: string) {}

  private path(name: string): string {
    if (!this.made) mkdirSync(this.resultsDir, { recursive: true });
    this.made = true;
    return join(this.resultsDir, name);
  }

  writeResult(result: Parameters<Writer['writeResult']>[0]): void {
    writeFileSync(this.path(`${result.uuid}-result.json`), JSON.stringify(result));
  }

  writeGroup(result: Parameters<Writer['writeGroup']>[0]): void {
    writeFileSync(this.path(`${result.uuid}-container.json`), JSON.stringify(result));
  }

  writeAttachment(distFileName: string, content: Buffer): void {
    writeFileSync(this.path(distFileName), content);
  }

  writeAttachmentFromPath(distFileName: string, from: string): void {
    copyFileSync(from, this.path(distFileName));
  }

  writeEnvironmentInfo(info: Parameters<Writer['writeEnvironmentInfo']>[0]): void {
    writeFileSync(this.path('environment.properties'), stringifyEnvInfo(info));
  }

  writeCategoriesDefinitions(categories: Parameters<Writer['writeCategoriesDefinitions']>[0]): void {
    writeFileSync(this.path('categories.json'), JSON.stringify(categories));
  }

  writeGlobals(distFileName: string, info: Parameters<Writer['writeGlobals']>[1]): void {
    writeFileSync(this.path(distFileName), JSON.stringify(info));
  }
}


/** allure-playwright with {@link PlainResultsWriter}: the same options, results and files. */
export default class AllureResultsReporter extends AllureReporter {
  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    // allure-playwright creates its runtime, with its own writer, here. A version that keeps it elsewhere keeps its
    // own writer: slower, never wrong.
    const runtime = (this as unknown as { allureRuntime?: { writer?: Writer } }).allureRuntime;
    if (runtime?.writer) runtime.writer = new PlainResultsWriter(this.options.resultsDir ?? './allure-results');
  }
}
