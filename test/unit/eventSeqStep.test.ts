import { test } from './helpers/test.js';
import { expectEqual } from './helpers/fastExpect.js';
import * as fc from 'fast-check';
import type { WireEvent } from '../../core/index.js';
import { checkSeqSequence, checkSeqStep } from '../../src/checks/eventChecks.js';

const event: fc.Arbitrary<WireEvent> = fc.record(
  { type: fc.constantFrom('message.delta', 'session.info'), session_id: fc.constantFrom('s1', 's2', ''), seq: fc.integer({ min: -1, max: 5 }) },
  { requiredKeys: ['type'] },
);

test('one step of the seq rule judges as the sequence of the previous event and this one does', () => {
  fc.assert(
    fc.property(fc.option(event, { nil: undefined }), event, fc.subarray(['s1', 's2']), (previous, current, created) => {
      const createdHere = new Set(created);
      const sequence = previous === undefined ? checkSeqSequence([current], createdHere) : checkSeqSequence([previous, current]);
      const firstOnly = previous === undefined ? [] : checkSeqSequence([previous]);
      // The step judges only the new event: a problem with the previous one alone was reported when it came.
      expectEqual(checkSeqStep(previous, current, createdHere), sequence.slice(firstOnly.length), JSON.stringify({ previous, current, created }));
    }),
    { numRuns: 500 },
  );
});
