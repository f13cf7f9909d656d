import { expect, test } from './helpers/test.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const REPO = join(import.meta.dirname, '..', '..');
const DOCS = join(REPO, 'docs');
const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
const pages = readdirSync(DOCS).filter((name) => name.endsWith('.md'));

/** GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces as -. */
const slugOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_ -]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (markdown: string): Set<string> => new Set([...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)].map((match) => slugOf(match[1]!)));

/** The relative links of a Markdown file that lead nowhere: a missing file, or a heading the target does not have. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((link) => !/^[a-z]+:/.test(link))
    .filter((link) => {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? file : resolve(dirname(file), path);
      if (!existsSync(target)) return true;
      if (anchor === undefined || statSync(target).isDirectory() || !target.endsWith('.md')) return false;
      return !anchorsOf(readFileSync(target, 'utf8')).has(anchor);
    })
    .map((link) => `${relative(REPO, file)}: ${link}`);
}

test('the README opens with the two commands: install and run, then the tests', () => {
  const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const commands = firstBlock.split('\n').map((line) => line.replace(/#.*$/, '').trim()).filter(Boolean);
  expect(commands).toEqual(['npm ci && npx contract-gate run', 'npm test']);
});

test('the README stays short and links every page of docs/, as the docs index does', () => {
  expect(readme.split('\n').length, 'README.md lines').toBeLessThanOrEqual(250);
  const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
  expect(pages.filter((page) => page !== 'README.md' && !readme.includes(`(docs/${page}`)), 'pages the README does not link').toEqual([]);
  expect(pages.filter((page) => page !== 'README.md' && !index.includes(`(${page}`)), 'pages docs/README.md does not link').toEqual([]);
});

test('every relative link of the README and of docs/ leads to a file and heading that exist', () => {
  const files = [join(REPO, 'README.md'), ...pages.map((page) => join(DOCS, page))];
  expect(files.flatMap(brokenLinks)).toEqual([]);
});
