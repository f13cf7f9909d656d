import { test } from './helpers/test.js';
import fc from 'fast-check';
import { copyJson } from '../../gateway/core/jsonCopy.js';
import { expectEqual, expectIs } from './helpers/fastExpect.js';

/** JSON values whose objects may carry the keys that assignment would treat specially. */
const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'toString', '0', 'length'));
const { value: json } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string({ maxLength: 8 })),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  ),
}));

/** Every object and array of `value`, depth first. */
function containers(value: unknown, into: object[] = []): object[] {
  if (typeof value !== 'object' || value === null) return into;
  into.push(value);
  for (const member of Object.values(value)) containers(member, into);
  return into;
}

test('property: copyJson gives what structuredClone gives, own __proto__ keys included, sharing no object with the original', () => {
  fc.assert(
    fc.property(json, (value) => {
      const copy = copyJson(value);
      expectEqual(copy, structuredClone(value));
      expectEqual(JSON.stringify(copy), JSON.stringify(value));
      const originals = new Set(containers(value));
      expectIs(containers(copy).some((node) => originals.has(node)), false, 'a container of the copy is one of the original');
      for (const node of containers(copy)) if (!Array.isArray(node)) expectIs(Object.getPrototypeOf(node), Object.prototype, 'a copied object keeps the plain prototype');
    }),
    { numRuns: 300 },
  );
});
