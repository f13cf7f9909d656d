import { isPlainObject, onEvents, reframed } from './frameRewrites.js';
import type { GatewayFault } from './faultTypes.js';

export const EVENT_FAULTS: readonly GatewayFault[] = [
  {
    name: 'event.jsonrpc-missing',
    breaks: 'live message.delta events carry no jsonrpc member',
    check: 'event.envelope',
    install: (seams) =>
      seams.funnel.use((outbound) => {
        const params = outbound.frame['params'];
        if (outbound.kind !== 'event' || !isPlainObject(params) || params['type'] !== 'message.delta') return [outbound];
        const { jsonrpc: _dropped, ...rest } = outbound.frame;
        return [reframed(outbound, rest)];
      }),
  },
  {
    name: 'event.payload-wrong-type',
    breaks: 'session.resume_progress payloads carry phase as a number',
    check: 'event.payload-schema',
    install: (seams) =>
      seams.funnel.use(
        onEvents('session.resume_progress', (params) => (isPlainObject(params['payload']) ? { ...params, payload: { ...params['payload'], phase: 1 } } : params)),
      ),
  },
  {
    name: 'event.seq-repeats',
    breaks: 'a live error event repeats the seq of the event before it, so the next event seems to skip one',
    check: 'event.seq-monotonic',
    install: (seams) => seams.funnel.use(onEvents('error', (params) => (typeof params['seq'] === 'number' && params['seq'] > 1 ? { ...params, seq: params['seq'] - 1 } : params))),
  },
];
