/**
 * The application both third-party servers are made to serve (its contract: calculator.openrpc.json). The
 * handlers validate their params the way a careful application does (they answer -32602) and raise the domain
 * errors the contract declares, so what the harness finds beyond that comes from the server library.
 */
export type Params = Record<string, unknown>;

export class InvalidParams extends Error {}

/** The application code, shared by both servers: it validates its own params and raises domain errors. */
export const calculator = {
  'calc.add': (params: Params): number => finite(number(params, 'a') + number(params, 'b')),
  'calc.divide': (params: Params): number => {
    const divisor = number(params, 'divisor');
    const dividend = number(params, 'dividend');
    if (divisor === 0) throw new DomainError(-32000, 'division by zero');
    return finite(dividend / divisor);
  },
  'text.echo': (params: Params): { text: string; length: number } => {
    const text = params['text'];
    if (typeof text !== 'string' || text.length > 200) throw new InvalidParams('text must be a string of at most 200 characters');
    return { text, length: text.length };
  },
  'text.lookup': (params: Params): string => {
    const key = params['key'];
    if (key !== 'alpha' && key !== 'beta' && key !== 'missing') throw new InvalidParams('key must be alpha, beta or missing');
    if (key === 'missing') throw new DomainError(4404, 'no such key');
    return key === 'alpha' ? 'first' : 'second';
  },
} as const;

export type CalculatorMethod = keyof typeof calculator;

export class DomainError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function finite(value: number): number {
  if (!Number.isFinite(value)) throw new DomainError(4413, 'result out of range');
  return value;
}

function number(params: Params, name: string): number {
  const value = params[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidParams(`${name} must be a number`);
  return value;
}

/** By-name params only: anything but a plain object is refused. */
export function namedParams(params: unknown): Params {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw new InvalidParams('params must be an object (by-name)');
  return params as Params;
}
