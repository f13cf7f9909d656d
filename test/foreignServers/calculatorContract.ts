/**
 * The hand-written OpenRPC document of the small calculator service both third-party servers are made to serve.
 * The handlers validate their params the way a careful application does (they answer -32602), so what the harness
 * finds beyond that comes from the server library. Params models are open (no additionalProperties), results
 * closed where the handler controls every key.
 */
export function calculatorContract(title: string, version: string): Record<string, unknown> {
  const numberParam = (name: string) => ({ name, required: true, schema: { type: 'number' } });
  return {
    openrpc: '1.2.6',
    info: { title, version },
    methods: [
      {
        name: 'calc.add',
        paramStructure: 'by-name',
        params: [numberParam('a'), numberParam('b')],
        result: { name: 'sum', schema: { type: 'number' } },
        errors: [{ $ref: '#/components/errors/OutOfRange' }],
      },
      {
        name: 'calc.divide',
        paramStructure: 'by-name',
        params: [numberParam('dividend'), numberParam('divisor')],
        result: { name: 'quotient', schema: { type: 'number' } },
        errors: [{ $ref: '#/components/errors/DivisionByZero' }, { $ref: '#/components/errors/OutOfRange' }],
      },
      {
        name: 'text.echo',
        paramStructure: 'by-name',
        params: [{ name: 'text', required: true, schema: { type: 'string', maxLength: 200 } }],
        result: {
          name: 'echo',
          schema: { type: 'object', required: ['text', 'length'], additionalProperties: false, properties: { text: { type: 'string' }, length: { type: 'integer', minimum: 0 } } },
        },
      },
      {
        name: 'text.lookup',
        paramStructure: 'by-name',
        params: [{ name: 'key', required: true, schema: { type: 'string', enum: ['alpha', 'beta', 'missing'] } }],
        result: { name: 'value', schema: { type: 'string' } },
        errors: [{ code: 4404, message: 'no such key' }],
      },
    ],
    components: {
      errors: {
        // -32000 is in the range JSON-RPC reserves for implementation-defined server errors; declared here, it is this method's domain error.
        DivisionByZero: { code: -32000, message: 'division by zero' },
        // JSON has no Infinity: a result that overflows is refused rather than sent as null.
        OutOfRange: { code: 4413, message: 'result out of range' },
      },
    },
  };
}

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
