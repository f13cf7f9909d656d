import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * Import boundaries (DESIGN.md): suites only meet the rest through fixtures; src/ and fuzz/ never import
 * Playwright; reporters never import fixtures or the client; the reference gateway shares no runtime code
 * with the harness (a bug in both would make them agree on a wrong answer).
 */
const zone = (target, from, message) => ({ target, from, message });

export default tseslint.config(
  { ignores: ['node_modules/**', 'contract-gate-report/**', 'test-results/**', 'playwright-report/**', '.scratch/**', '**/*.d.ts'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-empty-pattern': 'off',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...['./src/client', './src/conformance', './src/contracts', './src/binding', './src/replay', './src/report', './src/skew', './gateway', './reporters'].map((from) =>
              zone('./suites', from, 'suites stay declarative: they import fixtures/ (plus check ids and generators) only'),
            ),
            zone('./src', './fixtures', 'src/ is the library; fixtures/ wires it into Playwright'),
            zone('./src', './suites', 'src/ never depends on specs'),
            zone('./src', './gateway', 'the harness library must not share code with the reference gateway'),
            zone('./fuzz', './src/client', 'fuzz/ is pure: no I/O'),
            zone('./fuzz', './fixtures', 'fuzz/ is pure'),
            zone('./reporters', './fixtures', 'reporters run in the runner process, fixtures in workers'),
            zone('./reporters', './src/client', 'reporters never talk to the target'),
            zone('./gateway', './src/client', 'the oracle must not reuse the client'),
            zone('./gateway', './src/contracts', 'the oracle loads and validates contracts itself'),
            zone('./gateway', './src/checks', 'the oracle must not reuse the checks'),
            zone('./gateway', './src/conformance', 'the oracle must not reuse the harness'),
            zone('./gateway', './fuzz', 'the oracle must not reuse the generators'),
            zone('./gateway', './fixtures', 'the oracle is independent of Playwright wiring'),
          ],
        },
      ],
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['src/**/*.ts', 'fuzz/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: '@playwright/test', message: 'src/ and fuzz/ never import Playwright, so the CLI and benches can use them directly' }] }],
    },
  },
);
