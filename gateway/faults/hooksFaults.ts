import type { GatewayCore } from '../core/gatewayCore.js';
import { ErrorCode } from '../core/wireErrors.js';
import { HOOK_FAULTS, type HookFaultName } from '../hooks/hookFaults.js';
import { isPlainObject, onResponses, reframed } from './frameRewrites.js';
import type { FaultSpec } from './faultTypes.js';

const HOOK_FAULT_PARTS: Record<HookFaultName, Omit<FaultSpec, 'install'>> = {
  'hooks.cleanup-loses-disconnect-exception': { breaks: 'the cleanup of a session whose owner dropped reports exception null', check: 'scenario.hooks-cleanup-exception' },
  'hooks.cleanup-twice': { breaks: 'every session_cleanup is sent twice', check: 'scenario.hooks-once' },
  'hooks.reset-without-previous-context': { breaks: 'session_reset comes without previous_context', check: 'scenario.hooks-reset' },
  'hooks.close-reports-exception': { breaks: 'the cleanup of a normal session.close reports an exception', check: 'scenario.hooks-normal-close' },
  'hooks.build-failure-other-message': { breaks: "a failed build's cleanup names another message than its error event", check: 'scenario.hooks-build-failure' },
};

/**
 * A failing session_cleanup handler is not contained: the session.close that fired it answers -32603, as a gateway
 * that lets plugin exceptions propagate (Mellea's raw plugins) would.
 */
function pluginErrorReachesClient(core: GatewayCore): () => void {
  const failed = new Set<string>();
  const offFailure = core.hooks.bus.onFailure((failure) => {
    if (failure.hook === 'session_cleanup') failed.add(failure.payload.session_id);
  });
  const offFunnel = core.funnel.use(
    onResponses('session.close', (outbound) => {
      const session = isPlainObject(outbound.params) ? outbound.params['session_id'] : undefined;
      if (typeof session !== 'string' || !failed.delete(session)) return [outbound];
      const { result: _closed, ...rest } = outbound.frame;
      return [reframed(outbound, { ...rest, error: { code: ErrorCode.INTERNAL_ERROR, message: 'internal error: session_cleanup handler failed' } })];
    }),
  );
  return () => {
    offFailure();
    offFunnel();
  };
}

export const HOOKS_FAULTS: Record<string, FaultSpec> = {
  ...Object.fromEntries(
    (Object.keys(HOOK_FAULTS) as HookFaultName[]).map((name) => [name, { ...HOOK_FAULT_PARTS[name], install: (core: GatewayCore) => core.funnel.use(HOOK_FAULTS[name]) }]),
  ),
  'hooks.plugin-error-reaches-client': {
    breaks: 'a throwing or over-long session_cleanup plugin makes the session.close that fired it answer -32603',
    check: 'scenario.hooks-plugin-failure',
    install: pluginErrorReachesClient,
  },
};
