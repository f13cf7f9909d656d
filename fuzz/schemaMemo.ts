import type { JsonSchema, SchemaResolver } from '../core/index.js';
import { type Expansion, expandSchemaReaching } from './expandSchema.js';

interface Computed {
  expansion: Expansion;
  maxDepth: number;
  deepest: number;
}

/** Expansions of one schema node, by the `$ref` stack they were made under (a trie: stacks are short). */
interface StackNode {
  computed: Computed[];
  next: Map<string, StackNode>;
}

/**
 * The expansions that the walks of one method run repeat: the smallest payload, the one with every optional key
 * and the arbitrary all take the same schemas apart. Make one per method run and pass it to every walk of that
 * run (never share it between runs: what a run computes is its own). Expansions are read, never changed, by the
 * walkers, so one object serves every walk.
 *
 * An expansion made with one recursion bound serves another when no `$ref` on the way had come back as often as
 * either bound allows: nothing was cut, so both bounds give the same alternatives.
 */
export class SchemaMemo {
  private readonly nodes = new Map<object, StackNode>();

  /** `$ref`s are followed through `resolver`; walks with another resolver do not use this memo. */
  constructor(readonly resolver: SchemaResolver) {}

  /** `expandSchema(schema, { resolver, maxDepth }, refStack)`, computed once per run. */
  expansion(schema: JsonSchema, maxDepth: number, refStack: readonly string[]): Expansion {
    const options = { resolver: this.resolver, maxDepth };
    if (typeof schema === 'boolean') return expandSchemaReaching(schema, options, refStack).expansion;
    let node: StackNode | undefined = this.nodes.get(schema);
    if (!node) {
      node = { computed: [], next: new Map() };
      this.nodes.set(schema, node);
    }
    for (const ref of refStack) {
      let child: StackNode | undefined = node.next.get(ref);
      if (!child) {
        child = { computed: [], next: new Map() };
        node.next.set(ref, child);
      }
      node = child;
    }
    const known = node.computed.find((c) => c.deepest <= Math.min(c.maxDepth, maxDepth));
    if (known) return known.expansion;
    const { expansion, deepest } = expandSchemaReaching(schema, options, refStack);
    node.computed.push({ expansion, maxDepth, deepest });
    return expansion;
  }
}
