import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Folders that never hold a project's own documents: dependencies, build output, reports, tool state. */
const SKIPPED = /^(node_modules|dist|build|coverage|test-results|playwright-report|blob-report|allure-.*|contract-gate-.*report.*|\..*)$/;
const MAX_BYTES = 20 * 1024 * 1024;
const MAX_FILES = 20_000;

/** Whether a file's first bytes can start a JSON object naming `openrpc` (so big unrelated JSON is never parsed). */
function mayBeOpenRpc(path: string): boolean {
  const head = Buffer.alloc(4096);
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, head, 0, head.length, 0);
    const text = head.subarray(0, read).toString('utf8');
    return /^\s*\{/.test(text) && (text.includes('"openrpc"') || read === head.length);
  } finally {
    closeSync(fd);
  }
}

function isOpenRpc(path: string): boolean {
  try {
    if (statSync(path).size > MAX_BYTES || !mayBeOpenRpc(path)) return false;
    const document: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof document === 'object' && document !== null && !Array.isArray(document) && 'openrpc' in document;
  } catch {
    return false;
  }
}

/**
 * The OpenRPC documents of a repository: JSON files whose top level has an `openrpc` member, outside
 * node_modules, .git, build output and report folders; paths relative to `root`, with `/`, in a stable order.
 */
export function findOpenRpcDocuments(root: string): string[] {
  const found: string[] = [];
  let seen = 0;
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (seen++ > MAX_FILES) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.test(entry.name)) walk(path);
      } else if (entry.isFile() && entry.name.endsWith('.json') && isOpenRpc(path)) {
        found.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  walk(root);
  return found;
}
