import { onResults } from './frameRewrites.js';
import type { GatewayFault } from './faultTypes.js';

export const RESULT_FAULTS: readonly GatewayFault[] = [
  {
    name: 'result.required-field-dropped',
    breaks: 'spawn_tree.list results lack the required entries field',
    check: 'result.schema',
    install: (seams) =>
      seams.funnel.use(
        onResults('spawn_tree.list', (result) => {
          const { entries: _dropped, ...rest } = result;
          return rest;
        }),
      ),
  },
  {
    name: 'result.wrong-type',
    breaks: 'session.undo reports removed as a string ("1") instead of an integer',
    check: 'result.schema',
    install: (seams) => seams.funnel.use(onResults('session.undo', (result) => ({ ...result, removed: String(result['removed']) }))),
  },
  {
    name: 'result.undeclared-key',
    breaks: "session.title results carry a key the closed result model does not declare (debug)",
    check: 'result.schema',
    install: (seams) => seams.funnel.use(onResults('session.title', (result) => ({ ...result, debug: true }))),
  },
  {
    // A flaky target: the same request is answered wrong once, then right (what --retries must report as flaky).
    name: 'result.first-answer-wrong',
    breaks: "the first session.usage result of the gateway's life reports input as a string; every later one is right",
    check: 'result.schema',
    install: (seams) => {
      let answered = false;
      return seams.funnel.use(
        onResults('session.usage', (result) => {
          if (answered) return result;
          answered = true;
          return { ...result, input: String(result['input']) };
        }),
      );
    },
  },
];
