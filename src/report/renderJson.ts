import { CELL_STATUSES, type Matrix } from './matrixTypes.js';

export function renderJson(matrix: Matrix): string {
  return `${JSON.stringify(matrix, null, 2)}\n`;
}

/**
 * Reads a `matrix.json` back (shard merge, CI scripts). Checks the shape the readers rely on and names the
 * file and the field when it is wrong.
 */
export function parseMatrixJson(text: string, path: string): Matrix {
  const fail = (message: string): never => {
    throw new Error(`matrix ${path}: ${message}`);
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fail(`not valid JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('expected a JSON object');
  const matrix = data as Record<string, unknown>;
  if (typeof matrix['target'] !== 'string') fail('"target" must be a string');
  if (!Array.isArray(matrix['contracts'])) fail('"contracts" must be an array');
  if (matrix['seed'] !== null && !Number.isInteger(matrix['seed'])) fail('"seed" must be an integer or null');
  if (matrix['verdict'] !== 'pass' && matrix['verdict'] !== 'fail') fail('"verdict" must be "pass" or "fail"');
  const cells = matrix['cells'];
  if (!Array.isArray(cells)) return fail('"cells" must be an array');
  cells.forEach((cell: unknown, index) => {
    const record = cell as Record<string, unknown> | null;
    const ok =
      typeof record === 'object' && record !== null &&
      typeof record['method'] === 'string' && typeof record['check'] === 'string' &&
      (CELL_STATUSES as readonly unknown[]).includes(record['status']);
    if (!ok) fail(`cells[${index}] must be { method, check, status } with a known status`);
  });
  return data as Matrix;
}
