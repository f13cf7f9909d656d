import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * An OpenRPC document of `count` generated methods for growth measurements: plain JSON-RPC (by-name params), each
 * method with a closed params object of four kinds of member (string with a length bound, integer range, enum,
 * nested object) and a closed result. Five shapes repeat, so that cost grows with the number of methods, not with
 * the variety of schemas.
 */
export function generatedContract(count: number): object {
  const shapes: Array<Record<string, object>> = [
    { name: { type: 'string', minLength: 1, maxLength: 40 }, limit: { type: 'integer', minimum: 1, maximum: 500 } },
    { id: { type: 'string', pattern: '^[a-f0-9]{8}$' }, mode: { enum: ['fast', 'slow', 'auto'] } },
    { filter: { type: 'object', properties: { tag: { type: 'string' }, since: { type: 'integer', minimum: 0 } }, required: ['tag'], additionalProperties: false } },
    { flag: { type: 'boolean' }, ratio: { type: 'number', minimum: 0, maximum: 1 } },
    { items: { type: 'array', items: { type: 'string', maxLength: 12 }, maxItems: 5 } },
  ];
  const methods = Array.from({ length: count }, (_, index) => {
    const properties = shapes[index % shapes.length] ?? {};
    const names = Object.keys(properties);
    return {
      name: `area${Math.floor(index / 10)}.method${index}`,
      paramStructure: 'by-name',
      params: names.map((name, position) => ({ name, required: position === 0, schema: properties[name] })),
      result: {
        name: 'result',
        schema: {
          type: 'object',
          properties: { ok: { type: 'boolean' }, count: { type: 'integer', minimum: 0 }, label: { type: 'string', maxLength: 20 } },
          required: ['ok', 'count'],
          additionalProperties: false,
        },
      },
    };
  });
  return { openrpc: '1.2.6', info: { title: `Generated growth document (${count} methods)`, version: '1.0.0' }, methods };
}

/** Writes the generated document for `count` methods into `dir` and returns its path. */
export function writeGeneratedContract(dir: string, count: number): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `generated-${count}.openrpc.json`);
  writeFileSync(path, `${JSON.stringify(generatedContract(count), null, 2)}\n`);
  return path;
}
