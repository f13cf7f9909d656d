import type { FrameInterceptor, OutboundFrame } from '../core/outboundFunnel.js';

/**
 * Deliberately wrong `session.hook` frames, for proving that the hook scenarios catch what they claim to catch.
 * Each is a plain funnel interceptor (`gateway.core.funnel.use(HOOK_FAULTS[name])`), so that a fault catalogue
 * can adopt them by name.
 */

type Payload = Record<string, unknown>;

function hookPayload(outbound: OutboundFrame, hook: string): Payload | undefined {
  if (outbound.kind !== 'event') return undefined;
  const params = outbound.frame['params'] as Payload | undefined;
  const payload = params?.['payload'] as Payload | undefined;
  return params?.['type'] === 'session.hook' && payload?.['hook'] === hook ? payload : undefined;
}

/** The same frame with its payload replaced by `change(payload)`. */
function rewritten(outbound: OutboundFrame, change: (payload: Payload) => Payload): OutboundFrame {
  const params = outbound.frame['params'] as Payload;
  const payload = change(structuredClone(params['payload'] as Payload));
  return { ...outbound, frame: { ...outbound.frame, params: { ...params, payload } } };
}

const exceptionType = (payload: Payload): unknown => (payload['exception'] as Payload | null | undefined)?.['type'];

export const HOOK_FAULTS = {
  /** A cleanup caused by a dropped connection reports `exception: null`. */
  'hooks.cleanup-loses-disconnect-exception': (outbound) => {
    const payload = hookPayload(outbound, 'session_cleanup');
    if (!payload || exceptionType(payload) !== 'ConnectionClosed') return [outbound];
    return [rewritten(outbound, (p) => ({ ...p, exception: null }))];
  },
  /** Every cleanup is sent twice. */
  'hooks.cleanup-twice': (outbound) => (hookPayload(outbound, 'session_cleanup') ? [outbound, outbound] : [outbound]),
  /** `session_reset` comes without `previous_context`. */
  'hooks.reset-without-previous-context': (outbound) => {
    if (!hookPayload(outbound, 'session_reset')) return [outbound];
    return [
      rewritten(outbound, (p) => {
        const { previous_context: _dropped, ...rest } = p;
        return rest;
      }),
    ];
  },
  /** A normal close reports an exception. */
  'hooks.close-reports-exception': (outbound) => {
    const payload = hookPayload(outbound, 'session_cleanup');
    if (!payload || payload['exception'] !== null) return [outbound];
    return [rewritten(outbound, (p) => ({ ...p, exception: { type: 'RuntimeError', message: 'cleanup raised' } }))];
  },
  /** The cleanup of a failed build names another message than the `error` event did. */
  'hooks.build-failure-other-message': (outbound) => {
    const payload = hookPayload(outbound, 'session_cleanup');
    if (!payload || exceptionType(payload) !== 'AgentBuildError') return [outbound];
    return [rewritten(outbound, (p) => ({ ...p, exception: { type: 'AgentBuildError', message: 'agent init failed' } }))];
  },
} satisfies Record<string, FrameInterceptor>;

export type HookFaultName = keyof typeof HOOK_FAULTS;
