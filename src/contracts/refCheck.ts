import { formatPointer, resolveLocalRef } from '../../core/index.js';

export interface DanglingRef {
  pointer: string;
  ref: string;
}

/** Every `$ref` of the document that does not resolve to a local target, with the pointer of the referring node. */
export function findDanglingRefs(document: unknown): DanglingRef[] {
  const dangling: DanglingRef[] = [];
  const visit = (node: unknown, path: Array<string | number>): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, [...path, index]));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const ref = (node as Record<string, unknown>)['$ref'];
    if (typeof ref === 'string' && resolveLocalRef(document, ref) === undefined) {
      dangling.push({ pointer: formatPointer(path), ref });
    }
    for (const [key, value] of Object.entries(node)) {
      // `examples` values are data, not schemas.
      if (key === 'examples' || key === 'example') continue;
      visit(value, [...path, key]);
    }
  };
  visit(document, []);
  return dangling;
}
