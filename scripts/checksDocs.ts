import { GENERIC_CATALOGUE, RETIRED_CHECKS } from '../src/checks/checkCatalogue.js';
import { type CheckDocsSection, renderChecksDocs } from '../src/checks/checksDocs.js';
import { PROFILES } from '../profiles/index.js';

/** What a profile's codes mean for the generic checks, in words (its codes.json says it as data). */
const PROFILE_NOTES: Record<string, string> = {
  hermes: `By-name params say nothing about undeclared top-level keys; the Hermes profile probes them as closed, since upstream
validates params with the method's Pydantic model (\`extra="forbid"\`). It expects \`4000\` with \`invalid params for
<method>: <dotted path>: Extra inputs are not permitted — the client and the Hermes backend are out of sync (different
versions); run \`hermes update\` and restart both\` (v0.21.3 servers omit the suffix). A Hermes domain error is
4001–4999; \`-32603\`, \`-32000..-32099\` and 5xxx are server errors. Identifier fields are bound by
\`profiles/hermes/contracts/bindings.json\`.

Under this profile the generic checks read its codes (\`profiles/hermes/codes.json\`): \`envelope.unknown-method\`
expects -32601 with \`unknown method: <method>\` (and the out-of-sync suffix on current servers), \`envelope.batch\`
expects one error answer, not an array (the profile handles no batches; the reference gateway answers -32600), and \`event.envelope\` expects notifications with method
"event", a string type, a string session_id and an integer seq on session events.`,
};

/** The sections of docs/checks.md: the checks of every target, then those each registered profile adds. */
export function checkDocsSections(): CheckDocsSection[] {
  const generic: CheckDocsSection = {
    title: 'Checks of every target',
    intro: 'Whatever the profile: the JSON-RPC envelope, params, results, events, client contracts and server→client requests.',
    checks: GENERIC_CATALOGUE.checks,
  };
  const profiles = PROFILES.filter((profile) => profile.checks.length > 0).map((profile) => ({
    title: `Checks of the \`${profile.name}\` profile`,
    intro: [`Declared by the profile (${profile.description}); a run under another profile has none of these cells.`, PROFILE_NOTES[profile.name]].filter(Boolean).join('\n\n'),
    checks: profile.checks,
  }));
  return [generic, ...profiles];
}

/** docs/checks.md as `npm run docs:checks` writes it. */
export const checksDocs = (): string => renderChecksDocs(checkDocsSections(), RETIRED_CHECKS);
