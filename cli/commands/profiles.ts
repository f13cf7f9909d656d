import { DEFAULT_PROFILE, PROFILES } from '../../profiles/index.js';
import { EXIT } from '../exitCodes.js';

/** `contract-gate profiles`: one paragraph per registered profile, in the order a run tries them. */
export async function profilesAction(): Promise<number> {
  const lines: string[] = [];
  for (const profile of PROFILES) {
    const checks = profile.checks.map((check) => check.id);
    lines.push(`${profile.name}${profile === DEFAULT_PROFILE ? ' (default: its documents and reference gateway are what a bare `contract-gate run` tests)' : ''}`);
    lines.push(`  ${profile.description}`);
    lines.push(`  default documents: ${profile.defaultContracts.length ? profile.defaultContracts.join(', ') : 'none (pass --contract)'}`);
    lines.push(`  own checks: ${checks.length ? `${checks.length} (${checks.join(', ')})` : 'none beyond the generic ones'}`);
    lines.push(`  reference gateway: ${profile.referenceGateway ? profile.referenceGateway.label : 'none (pass --target)'}; ticket login: ${profile.auth ? 'yes' : 'no'}`);
    lines.push('');
  }
  lines.push('A run without --profile takes the first profile that recognises its first --contract; --profile FILE extends one with codes of its own.');
  process.stdout.write(`${lines.join('\n')}\n`);
  return Promise.resolve(EXIT.OK);
}
