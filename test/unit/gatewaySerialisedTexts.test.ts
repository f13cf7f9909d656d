import { expect, test } from './helpers/test.js';
import * as fc from 'fast-check';
import { SerialisedTexts } from '../../gateway/core/serialisedTexts.js';

// A frame written around remembered texts is the very text JSON.stringify gives it, whatever the frame holds.

const member = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined));
const record = fc.dictionary(fc.string({ maxLength: 6 }), member, { maxKeys: 5 });

test('stringifyFrame gives JSON.stringify of any frame, with and without remembered values in its result', () => {
  fc.assert(
    fc.property(fc.array(record, { maxLength: 6 }), fc.boolean(), record, fc.oneof(fc.string(), fc.integer(), fc.constant(null)), (items, remembered, rest, id) => {
      const texts = new SerialisedTexts();
      if (remembered) texts.remember(items, JSON.stringify(items));
      const frame = { jsonrpc: '2.0', id, result: { ...rest, events: items, tail: [...items].reverse() } };
      expect(texts.stringifyFrame(frame)).toBe(JSON.stringify(frame));
    }),
    { numRuns: 300 },
  );
});

test('a remembered value is written by its text: the text given for it is used, not a new serialisation', () => {
  const texts = new SerialisedTexts();
  const events = [{ type: 'message.delta', seq: 1 }];
  texts.remember(events, '[{"type":"message.delta","seq":1}]');
  const frame = { jsonrpc: '2.0', id: 'r1', result: { events, count: 1 } };
  expect(texts.stringifyFrame(frame)).toBe('{"jsonrpc":"2.0","id":"r1","result":{"events":[{"type":"message.delta","seq":1}],"count":1}}');
  const marked = new SerialisedTexts();
  marked.remember(events, '["remembered"]');
  expect(marked.stringifyFrame(frame)).toBe('{"jsonrpc":"2.0","id":"r1","result":{"events":["remembered"],"count":1}}');
  expect(marked.stringifyFrame({ jsonrpc: '2.0', id: 'r2', result: { other: [...events] } })).toBe('{"jsonrpc":"2.0","id":"r2","result":{"other":[{"type":"message.delta","seq":1}]}}');
});
