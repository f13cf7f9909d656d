import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * Import boundaries: the folder graph of docs/ARCHITECTURE.md. Imports point one way
 * (core ← fuzz ← src ← profiles ← fixtures ← suites; reporters and cli on top), and the reference gateway shares no
 * code with the harness (a bug in both would make them agree on a wrong answer). The rules that need the whole module
 * graph or the types, no file importing itself through a cycle and no floating promise, are oxlint's
 * (.oxlintrc.json; `npm run lint` runs both): it builds the graph and the type-aware program natively, in about a tenth
 * of the time this parser takes for them.
 */
const zone = (target, from, message) => ({ target, from, message });
const HARNESS = ['./core', './fuzz', './src', './profiles', './fixtures', './suites', './reporters', './cli'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'contract-gate-report/**', 'test-results/**', 'playwright-report/**', '.scratch/**', '**/*.d.ts'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-empty-pattern': 'off',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            zone('./core', [...HARNESS.filter((dir) => dir !== './core'), './gateway', './test', './bench', './scripts'], 'core/ is the leaf: it imports nothing of the project'),
            zone('./fuzz', ['./src', './profiles', './fixtures', './suites', './reporters', './cli', './gateway'], 'fuzz/ is pure generators over core/'),
            zone('./src', ['./profiles', './fixtures', './suites', './reporters', './cli', './gateway'], 'src/ is the generic library; profiles plug into it (src/profile/profile.ts), fixtures/ wires it into Playwright'),
            zone('./profiles', ['./fixtures', './suites', './reporters', './cli'], 'a profile plugs into the library; the Playwright fixtures and the CLI sit above it'),
            zone('./profiles/json-rpc', './profiles/hermes', 'the generic profile knows no other family (profiles/index.ts wires them)'),
            zone('./fixtures', ['./suites', './reporters', './cli'], 'fixtures/ serve the suites, not the other way round'),
            zone('./suites', ['./core', './fuzz', './src', './profiles', './gateway', './reporters', './cli'], 'suites stay declarative: they import fixtures/ only'),
            zone('./reporters', ['./fixtures', './suites', './cli', './gateway', './profiles', './src/client'], 'reporters run in the runner process and never talk to the target'),
            zone('./gateway', [...HARNESS], 'the reference gateway is an independent oracle: it shares no code with the harness'),
            zone('./src/checks', './src/client', 'judges see exchanges (core/), never the transport'),
            zone('./src/skew', './src/client', 'the skew analyser compares documents; it never talks to a target'),
            zone('./src/report', './src/client', 'the matrix model never talks to a target'),
            zone('./src/contracts', ['./src/client', './src/checks', './src/conformance', './src/scenarios'], 'contracts are read before anything judges or talks'),
          ],
        },
      ],
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['core/**/*.ts', 'src/**/*.ts', 'fuzz/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: '@playwright/test', message: 'core/, src/ and fuzz/ never import Playwright, so the CLI, benches and proxy can use them directly' }] },
      ],
    },
  },
);
