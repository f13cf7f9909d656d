import { outcomeOf, type Exchange } from '../../core/index.js';
import { classifyExchange, describeExchange } from './outcomeClass.js';
import type { CodeProfile } from './codeProfile.js';
import { violation, type Violation } from './violation.js';

/** `params.valid-accepted`: success or a domain error; never a contract rejection, a server error, a drop or silence. */
export function checkValidAccepted(exchange: Exchange, profile: CodeProfile): Violation[] {
  const kind = classifyExchange(exchange, profile);
  if (kind === 'success' || kind === 'domain-error') return [];
  // A frame with neither result nor error is an envelope fault, judged by envelope.result-xor-error.
  if (kind === 'malformed' && exchange.response) return [];
  const reasons: Record<string, string> = {
    'contract-rejection': 'a contract rejection',
    'unknown-method': 'an unknown-method error for a declared method',
    'server-error': 'a server error',
    'no-answer': 'no answer',
    malformed: 'an unparseable answer',
  };
  const domain = profile.domainErrorText;
  const outcome = outcomeOf(exchange);
  const implementationDefined =
    kind === 'server-error' && outcome.kind === 'error' && outcome.code >= -32099 && outcome.code <= -32000
      ? ` (${outcome.code} is in -32000..-32099, implementation-defined server errors in JSON-RPC 2.0 §5.1; if it is this method's domain error, declare it in the method's \`errors\` or name it in a --profile file)`
      : '';
  return [
    violation(
      'params.valid-accepted',
      `${exchange.method}: a contract-valid payload got ${reasons[kind] ?? kind}: ${describeExchange(exchange)}${implementationDefined}; valid input must get a success or ${domain}${declaredText(profile)}`,
      exchange.id,
    ),
  ];
}

function declaredText(profile: CodeProfile): string {
  return profile.declaredErrorCodes?.length ? ` or one of the errors the method declares (${profile.declaredErrorCodes.join(', ')})` : '';
}

/** `params.unknown-key-rejected`: a closed model refuses an unknown key with the profile's code and a message naming its path. */
export function checkUnknownKeyRejected(exchange: Exchange, dottedPath: string, profile: CodeProfile): Violation[] {
  const outcome = outcomeOf(exchange);
  const fail = (what: string): Violation[] => {
    const expected = `expected ${profile.unknownKeyCode} "${profile.unknownKeyMessageExample(exchange.method, dottedPath)}"`;
    return [violation('params.unknown-key-rejected', `${exchange.method}: unknown key at ${dottedPath} under a closed model ${what}; ${expected}`, exchange.id)];
  };
  if (outcome.kind === 'result') return fail('was accepted (the gateway silently ignores keys its contract forbids)');
  if (outcome.kind !== 'error') return fail(`got ${describeExchange(exchange)}`);
  if (outcome.code !== profile.unknownKeyCode) return fail(`was rejected with code ${outcome.code} "${outcome.message}"`);
  if (!profile.unknownKeyMessageMatches(exchange.method, dottedPath, outcome.message, outcome.data)) {
    return fail(`was rejected with a message that does not name the path: "${outcome.message}"`);
  }
  return [];
}

/** `params.unknown-key-tolerated`: an open model accepts an unknown key and answers as it does without it. */
export function checkUnknownKeyTolerated(withKey: Exchange, withoutKey: Exchange, dottedPath: string, profile: CodeProfile): Violation[] {
  const withClass = classifyExchange(withKey, profile);
  const withoutClass = classifyExchange(withoutKey, profile);
  const withOutcome = outcomeOf(withKey);
  const withoutOutcome = outcomeOf(withoutKey);
  const sameCode = withOutcome.kind !== 'error' || withoutOutcome.kind !== 'error' || withOutcome.code === withoutOutcome.code;
  if (withClass === withoutClass && sameCode) return [];
  return [
    violation(
      'params.unknown-key-tolerated',
      `${withKey.method}: an unknown key at ${dottedPath} under an open model changed the answer: with the key ${describeExchange(withKey)}, without it ${describeExchange(withoutKey)}; open models (additionalProperties: true) must accept extra keys and change nothing`,
      withKey.id,
    ),
  ];
}

/**
 * How a contract-invalid payload is named in messages: its mutation and its description, which starts with where
 * it was made (`(root)` for the params themselves: fuzz/mutations.ts).
 */
export function mutationText(mutation: { kind: string; description: string } | undefined): string {
  return mutation ? `${mutation.kind} at ${mutation.description}` : 'a mutation';
}

/**
 * `params.invalid-not-accepted`: a contract-invalid payload never gets a success, not even one that comes after the
 * request timed out (a slow target that accepts it accepts it all the same).
 */
export function checkInvalidNotAccepted(exchange: Exchange, mutation: string): Violation[] {
  const accepted = outcomeOf(exchange).kind === 'result' ? 'got a success' : lateSuccess(exchange) ? 'got a success after its timeout' : undefined;
  if (!accepted) return [];
  return [
    violation(
      'params.invalid-not-accepted',
      `${exchange.method}: a contract-invalid payload (${mutation}) ${accepted}; the wire accepts more than the contract says — fix the handler or widen the contract`,
      exchange.id,
    ),
  ];
}

/** Whether the answer that came after the request had timed out is a success. */
function lateSuccess(exchange: Exchange): boolean {
  if (exchange.response !== undefined || exchange.lateAnswer === undefined) return false;
  try {
    const late = JSON.parse(exchange.lateAnswer) as unknown;
    return typeof late === 'object' && late !== null && !Array.isArray(late) && 'result' in late && !('error' in late);
  } catch {
    return false;
  }
}
