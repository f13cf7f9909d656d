import { configFileOptions, optionsOf } from './optionTable.js';
import { argOf, COMMAND_NAMES, type CommandName, defaultText, flagOf, type OptionKind, type OptionSpec } from './optionTypes.js';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function typeText(kind: OptionKind): string {
  switch (kind.kind) {
    case 'list':
      return `list of ${typeText(kind.of)}`;
    case 'integer':
      return kind.min !== undefined && kind.max !== undefined ? `integer ${kind.min}…${kind.max}` : kind.min !== undefined ? `integer ≥ ${kind.min}` : 'integer';
    case 'duration':
      return `duration ≥ ${kind.min} ms`;
    case 'choice':
      return kind.values.map((value) => `\`${value}\``).join(' \\| ');
    case 'envName':
      return 'variable name';
    case 'shard':
      return '`i/n`';
    case 'regex':
      return 'regular expression';
    case 'path':
      if (kind.names) return `path or ${kind.names}`;
      return kind.keywords?.length ? `path or ${kind.keywords.map((k) => `\`${k}\``).join(', ')}` : kind.url ? 'path or URL' : 'path';
    default:
      return kind.kind;
  }
}

function flagText(key: string, spec: OptionSpec): string {
  const flag = flagOf(key, spec);
  if (spec.type.kind === 'boolean') return `\`--${spec.negate ? 'no-' : ''}${flag}\``;
  return cell(`\`--${flag} <${argOf(spec.type)}>\``);
}

function row(columns: readonly string[]): string {
  return `| ${columns.join(' | ')} |`;
}

/** A key's boolean default is its value in the file (`true` for a `--no-…` option); a flag's is said by its name. */
function defaultCell(spec: OptionSpec, asKey = false): string {
  if (asKey && spec.type.kind === 'boolean' && typeof spec.default === 'boolean') return `\`${spec.default}\``;
  const text = defaultText(spec);
  return text === undefined ? '' : spec.defaultFrom ? cell(text) : `\`${cell(text)}\``;
}

function commandTable(command: CommandName): string {
  const lines = [row(['option', 'type', 'default', 'description']), row(['---', '---', '---', '---'])];
  for (const [key, spec] of optionsOf(command)) {
    const extra = [spec.env ? `env \`${spec.env}\`` : '', spec.secret === 'literal' ? 'secret: command line only' : '', spec.required ? 'required' : ''].filter(Boolean);
    lines.push(row([flagText(key, spec), typeText(spec.type), defaultCell(spec), cell(spec.help) + (extra.length ? ` (${extra.join('; ')})` : '')]));
  }
  return lines.join('\n');
}

/** docs/configuration.md, generated from the option table (`npm run docs`); a unit test fails when it is stale. */
export function renderConfigurationDocs(): string {
  const keys = [row(['key', 'option', 'type', 'default', 'description']), row(['---', '---', '---', '---', '---'])];
  for (const [key, spec] of configFileOptions()) {
    const note = spec.secret === 'name' ? '; the secret itself is never in the file' : '';
    keys.push(row([`\`${key}\``, flagText(key, spec), typeText(spec.type), defaultCell(spec, true), cell(spec.help) + note]));
  }
  const others = COMMAND_NAMES.filter((name) => name !== 'run').map((name) => `### \`contract-gate ${name}\`\n\n${commandTable(name)}`);
  return `<!-- Generated from src/config/optionTable.ts by \`npm run docs\`; do not edit by hand. -->
# Configuration

Every option of \`contract-gate run\` can be given on the command line or in a configuration file,
\`contract-gate.config.ts\`, \`contract-gate.config.mjs\` or \`contract-gate.config.json\`, looked for in the working
directory and then in each folder above it (the first folder that has one wins; in one folder, that order), or named
with \`--config FILE\`. \`npx contract-gate init\` writes a commented one.

\`\`\`js
// contract-gate.config.mjs
import { defineConfig } from 'contract-gate/config';

export default defineConfig({
  contract: ['api/gateway.openrpc.json'],
  seed: 7,
  reportDir: 'reports/contract-gate',
  projects: {
    staging: { target: 'wss://staging.example.com/api/ws', tokenEnv: 'STAGING_GATEWAY_TOKEN', maxInFlight: 2, budget: '5m' },
  },
});
\`\`\`

- **Keys** are the long options in camelCase (\`--report-dir\` → \`reportDir\`). A list may also be a single value;
  a duration is milliseconds or a string with a unit (\`"500ms"\`, \`"5s"\`, \`"2m"\`). An unknown key is an error,
  with the closest known key when one is close.
- **Paths** are relative to the file (on the command line: to the working directory).
- **Projects**: \`--project NAME\` (or \`CONTRACT_GATE_PROJECT\`) picks one of \`projects\`; its keys override the top level.
- **Precedence**: the command line (and an option's environment variable) over the project, the project over the
  file's top level, the top level over the defaults below. A list replaces a list, it is not added to.
- **Secrets** are never in the file, only the names of the environment variables that hold them (\`tokenEnv\`,
  \`passwordEnv\`, \`cookieEnv\`, \`credentialEnv\`, \`secretEnv\`). A key that would hold a secret itself (\`token\`,
  \`password\`, \`cookie\`, \`ticket\`, \`credential\`, …) or a \`…Env\` value that is not a variable name stops the run
  with exit code 2, naming the key and printing no value.
- **Formats**: \`.json\` and \`.mjs\` need nothing but contract-gate; \`.ts\` is loaded with [tsx](https://tsx.is)
  (\`npm i -D tsx\`). The JSON form is checked against [config.schema.json](config.schema.json)
  (\`"$schema": "./node_modules/contract-gate/docs/config.schema.json"\` for editors), and so is what a .ts or .mjs
  file exports.

## Keys

${keys.join('\n')}

\`--config FILE\` (env \`CONTRACT_GATE_CONFIG\`) and \`--project NAME\` (env \`CONTRACT_GATE_PROJECT\`) are command-line only.

Compiled schema validators, the harness's and the embedded reference gateway's, are kept between runs in
\`$XDG_CACHE_HOME/contract-gate/validators\` (else \`~/.cache/contract-gate/validators\`), keyed by ajv's version, the
document and the schema: env \`CONTRACT_GATE_CACHE_DIR\` moves the folder, \`CONTRACT_GATE_CACHE=off\` turns the cache
off. A CI job can keep the folder between jobs (\`actions/cache\`); removing it at any time is safe. The folder is
kept within 256 MB (\`CONTRACT_GATE_CACHE_MAX_MB\`; a default run of a document of 1,300 schemas
stores about 13 MB): a run that writes to a folder over the bound removes the entries used least recently, down to
three quarters of it. The package ships the validators of its profiles' default documents (\`validator-seed/\`, keyed
the same way): where the folder misses, they are read from there, so a machine's first default run compiles none
(\`CONTRACT_GATE_SEED_DIR\` names another seed; a checkout of the repository has none). Its \`code/\` subfolder keeps
V8's compiled code of the command line itself, an entry per kind of command, build and Node (24 at most): a command
then starts without compiling its two megabytes of JavaScript again (a one-method run about 0.1 s of CPU sooner);
\`CONTRACT_GATE_CODE_CACHE=off\` turns that part off alone.

## The other commands

They take no configuration file; their options, from the same table:

${others.join('\n\n')}
`;
}
