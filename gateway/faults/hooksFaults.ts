import { ErrorCode } from '../core/wireErrors.js';
import { type Frame, isPlainObject, onResponses, reframed } from './frameRewrites.js';
import type { FaultSeams, GatewayFault } from './faultTypes.js';
import type { FrameInterceptor, OutboundFrame } from '../core/outboundFunnel.js';

/** The payload of a `session.hook` event for `hook`, if the frame is one. */
function hookPayload(outbound: OutboundFrame, hook: string): Frame | undefined {
  if (outbound.kind !== 'event') return undefined;
  const params = outbound.frame['params'];
  const payload = isPlainObject(params) ? params['payload'] : undefined;
  return isPlainObject(params) && params['type'] === 'session.hook' && isPlainObject(payload) && payload['hook'] === hook ? payload : undefined;
}

/** The same frame with its hook payload replaced by `change(payload)`. */
function rewritten(outbound: OutboundFrame, change: (payload: Frame) => Frame): OutboundFrame {
  const params = outbound.frame['params'] as Frame;
  const payload = change(structuredClone(params['payload'] as Frame));
  return reframed(outbound, { ...outbound.frame, params: { ...params, payload } });
}

const exceptionType = (payload: Frame): unknown => (payload['exception'] as Frame | null | undefined)?.['type'];

/** A fault that rewrites the cleanup frames matching `when`. */
const onCleanups =
  (when: (payload: Frame) => boolean, change: (payload: Frame) => Frame): FrameInterceptor =>
  (outbound) => {
    const payload = hookPayload(outbound, 'session_cleanup');
    return payload && when(payload) ? [rewritten(outbound, change)] : [outbound];
  };

/**
 * A failing session_cleanup handler is not contained: the session.close that fired it answers -32603, as a gateway
 * that lets plugin exceptions propagate (Mellea's raw plugins) would.
 */
function pluginErrorReachesClient(seams: FaultSeams): () => void {
  const failed = new Set<string>();
  const offFailure = seams.onHookFailure((failure) => {
    if (failure.hook === 'session_cleanup') failed.add(failure.payload.session_id);
  });
  const offFunnel = seams.funnel.use(
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

/** Deliberately wrong `session.hook` frames and hook handling, one way each. */
export const HOOKS_FAULTS: readonly GatewayFault[] = [
  {
    name: 'hooks.cleanup-loses-disconnect-exception',
    breaks: 'the cleanup of a session whose owner dropped reports exception null',
    check: 'scenario.hooks-cleanup-exception',
    install: (seams) => seams.funnel.use(onCleanups((p) => exceptionType(p) === 'ConnectionClosed', (p) => ({ ...p, exception: null }))),
  },
  {
    name: 'hooks.cleanup-twice',
    breaks: 'every session_cleanup is sent twice',
    check: 'scenario.hooks-once',
    install: (seams) => seams.funnel.use((outbound) => (hookPayload(outbound, 'session_cleanup') ? [outbound, outbound] : [outbound])),
  },
  {
    name: 'hooks.reset-without-previous-context',
    breaks: 'session_reset comes without previous_context',
    check: 'scenario.hooks-reset',
    install: (seams) =>
      seams.funnel.use((outbound) => {
        if (!hookPayload(outbound, 'session_reset')) return [outbound];
        return [
          rewritten(outbound, (p) => {
            const { previous_context: _dropped, ...rest } = p;
            return rest;
          }),
        ];
      }),
  },
  {
    name: 'hooks.close-reports-exception',
    breaks: 'the cleanup of a normal session.close reports an exception',
    check: 'scenario.hooks-normal-close',
    install: (seams) => seams.funnel.use(onCleanups((p) => p['exception'] === null, (p) => ({ ...p, exception: { type: 'RuntimeError', message: 'cleanup raised' } }))),
  },
  {
    name: 'hooks.build-failure-other-message',
    breaks: "a failed build's cleanup names another message than its error event",
    check: 'scenario.hooks-build-failure',
    install: (seams) =>
      seams.funnel.use(onCleanups((p) => exceptionType(p) === 'AgentBuildError', (p) => ({ ...p, exception: { type: 'AgentBuildError', message: 'agent init failed' } }))),
  },
  {
    name: 'hooks.plugin-error-reaches-client',
    breaks: 'a throwing or over-long session_cleanup plugin makes the session.close that fired it answer -32603',
    check: 'oracle.hooks-plugin-isolation',
    install: pluginErrorReachesClient,
  },
];
