import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './helpers/test.js';
import { generateSync } from 'json-schema-faker';
import { schemaClosure } from '../../gateway/core/contract/schemaClosure.js';
import { getAt, parseLocalRef } from '../../gateway/core/contract/jsonPointer.js';
import { expectEqual, expectIs } from './helpers/fastExpect.js';

const METAMASK = join(process.cwd(), 'node_modules', '@metamask', 'api-specs', 'dist', 'build', 'openrpc.json');
const EXAMPLES_DIR = join(process.cwd(), 'node_modules', '@open-rpc', 'examples', 'build', 'service-descriptions');
const EXAMPLES = readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith('.json')).map((name) => join(EXAMPLES_DIR, name));
const HERMES = ['gateway.openrpc.json', 'session-lifecycle.openrpc.json', 'session-hooks.openrpc.json'].map((name) => join(process.cwd(), 'profiles', 'hermes', 'contracts', name));

type Doc = { methods: unknown[]; [key: string]: unknown };

/** The pointers of every method's result schema (a `$ref`'d method or result followed to where it sits). */
function resultPointers(doc: Doc): string[] {
  return doc.methods.flatMap((_, index) => {
    let segments = ['methods', String(index)];
    for (const member of [undefined, 'result']) {
      if (member) segments = [...segments, member];
      const ref = (getAt(doc, segments) as { $ref?: unknown } | undefined)?.$ref;
      if (typeof ref === 'string') segments = parseLocalRef(ref) ?? segments;
    }
    return getAt(doc, [...segments, 'schema']) === undefined ? [] : [`/${[...segments, 'schema'].join('/')}`];
  });
}

/** Every `$ref` reached from `node`, followed in `root` (each followed once). */
function reachedRefs(root: unknown, node: unknown, seen = new Set<string>()): string[] {
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    if (key !== '$ref' || typeof value !== 'string') return reachedRefs(root, value, seen);
    if (seen.has(value) || !parseLocalRef(value)) return [];
    seen.add(value);
    return [value, ...reachedRefs(root, getAt(root, parseLocalRef(value) as string[]), seen)];
  });
}

test('each result schema\'s closure holds the document\'s own nodes for the schema and everything it references, and leaves the document unchanged (MetaMask, the open-rpc examples, the Hermes documents)', () => {
  for (const path of [METAMASK, ...EXAMPLES, ...HERMES]) {
    const text = readFileSync(path, 'utf8');
    const doc = JSON.parse(text) as Doc;
    const pointers = resultPointers(doc);
    expectIs(pointers.length > 0, true, `${path} has result schemas`);
    for (const pointer of pointers) {
      const closure = schemaClosure(doc, pointer);
      expectIs(closure['$ref'], `#${pointer}`);
      const segments = parseLocalRef(`#${pointer}`) as string[];
      expectIs(getAt(closure, segments), getAt(doc, segments), `${pointer} is the document's node`);
      for (const ref of reachedRefs(doc, getAt(doc, segments))) {
        const target = parseLocalRef(ref) as string[];
        expectIs(getAt(closure, target) !== undefined && getAt(closure, target) === getAt(doc, target), true, `${pointer} reaches ${ref}: the closure holds the document's node there`);
      }
      expectIs(Object.hasOwn(closure, 'info'), false, `${pointer}: the closure holds nothing the schema does not reach`);
    }
    expectEqual(JSON.stringify(doc), JSON.stringify(JSON.parse(text)), `${path} is unchanged`);
  }
});

/*
 * One exception: for an object schema that declares no properties json-schema-faker copies members of the document
 * it was given into the value (the whole OpenRPC document, or the closure's containers). Both fit such a schema.
 */
test('json-schema-faker makes the same values from the closure as from the whole document, but where it copies its document into a bare object (session-lifecycle and the open-rpc examples, 4 seeds each)', () => {
  const options = { refDepthMax: 5, maxItems: 3, maxDefaultItems: 3, failOnInvalidTypes: false };
  const outcome = (root: object, seed: number): string => {
    try {
      return JSON.stringify(generateSync(root as Parameters<typeof generateSync>[0], { seed, ...options })) ?? 'undefined';
    } catch (error) {
      return `throws ${(error as Error).message}`;
    }
  };
  let compared = 0;
  for (const path of [HERMES[1] as string, ...EXAMPLES]) {
    const doc = JSON.parse(readFileSync(path, 'utf8')) as Doc;
    for (const pointer of resultPointers(doc)) {
      const closure = schemaClosure(doc, pointer);
      for (let seed = 0; seed < 4; seed++) {
        const whole = outcome({ ...doc, $ref: `#${pointer}` }, seed);
        if (whole.includes('"openrpc":')) continue;
        expectIs(outcome(closure, seed), whole, `${path} ${pointer} seed ${seed}`);
        compared++;
      }
    }
  }
  expectIs(compared > 100, true, `${compared} values compared`);
});
