import type { CheckDefinition } from './checkCatalogue.js';

/** One part of docs/checks.md: the generic catalogue, or the checks a profile adds. */
export interface CheckDocsSection {
  readonly title: string;
  readonly intro: string;
  readonly checks: readonly CheckDefinition[];
}

export interface RetiredCheck {
  readonly id: string;
  readonly note: string;
}

const ROW_OF: Record<CheckDefinition['subject'], string> = {
  method: 'one per contract method',
  event: 'one per declared event',
  'server-request': 'one per declared server→client request',
  scenario: 'the row of its scenario family',
  connection: 'a row no method owns',
};

/** GitHub's anchor of a heading made of one code span: lower case, punctuation other than - and _ dropped. */
const anchorOf = (id: string): string => id.toLowerCase().replace(/[^a-z0-9_ -]/g, '');

const cell = (text: string): string => text.replace(/\|/g, '\\|');

function checkEntry(check: CheckDefinition): string {
  return [
    `### \`${check.id}\``,
    '',
    `${check.title} (${check.area}; ${ROW_OF[check.subject]})`,
    '',
    `- **Expects**: ${check.rule}`,
    `- **Sends**: ${check.sends}`,
    `- **n/a when**: ${check.notApplicableWhen}`,
  ].join('\n');
}

function sectionText(section: CheckDocsSection): string {
  const index = ['| id | title |', '|---|---|', ...section.checks.map((check) => `| [\`${check.id}\`](#${anchorOf(check.id)}) | ${cell(check.title)} |`)];
  return [`## ${section.title}`, '', section.intro, '', index.join('\n'), '', section.checks.map(checkEntry).join('\n\n')].join('\n');
}

/** docs/checks.md, generated from the check catalogue (`npm run docs:checks`); a unit test fails when it is stale. */
export function renderChecksDocs(sections: readonly CheckDocsSection[], retired: readonly RetiredCheck[]): string {
  const migrations = retired.map((entry) => `- \`${entry.id}\` left the matrix. ${entry.note}`).join('\n');
  return `<!-- Generated from the check catalogue (src/checks/checkCatalogue.ts and each profile's checks) by \`npm run docs:checks\`; do not edit by hand. -->
# Checks

Check ids are public: they are matrix columns, baseline keys and \`@check:\` tags (\`--grep "@check:params\\\\."\`).
Every cell of the matrix is one subject (its row) and one check (its column). Rows are the subjects: a contract
method, an event name, \`(connection)\` for frames no method owns, \`(session events)\` for seq ordering, \`(auth)\`
for the upgrade of a gated target, \`(stateful)\` for call sequences, and a scenario family (\`topology\`, \`replay\`,
\`lifecycle\`, \`hooks\`) or a server→client request (\`approval\`, \`clarify\`, …) for the scenarios.

For each check: what it **expects** (its rule), what it **sends** to judge it, and when its cell is **n/a**
(nothing to judge, with the reason in the cell). Apart from those reasons, any cell is \`not run\` when the target
went down or became too slow before it ([profiles.md](profiles.md#statuses)).

**Policies come from the schemas**, never from hand lists: \`additionalProperties: false\` is a closed model, \`true\`
or absent an open one, and an \`additionalProperties\` schema is a map, probed with a new entry whose value fits it.
What code and wording a refusal must carry comes from the run's profile (\`contract-gate profiles\`): the plain
JSON-RPC profile expects \`-32602\` naming the key; a profile's own wording is in its section below.

**One method run feeds every method-level cell**, in three phases: a **valid** phase (\`--runs\` payloads: three fixed
examples first, the smallest payload, every optional key and 64 KiB strings, then seeded fast-check ones), an **unknown-key** phase
(one undeclared key at every object path: top level, nested objects, array items such as \`messages.0.<key>\`) and an
**invalid** phase (wrong type, missing required key, null for non-null, out-of-range and boundary values at every
path). Identifier fields are bound to live objects the run creates (the profile's binding rules, or \`--bindings FILE\`), so
methods are reached rather than answered "not found"; \`coverage\` in \`matrix.json\` lists the methods that answered
at least one success, the event types seen and the server requests received, each against its total (on the
reference gateway, the event sample \`/emit\`s every declared type its drivers did not provoke, so each event cell
judges a real payload). A failing valid-phase cell is shrunk to a minimal payload.

${sections.map(sectionText).join('\n\n')}

## Migration notes

${migrations}
`;
}
