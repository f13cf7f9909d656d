import { outcomeOf, type Exchange } from '../../core/index.js';
import { formatViolation, type SchemaCheck } from '../contracts/schemaValidators.js';
import { violation, type Violation } from './violation.js';

/** `result.schema`: every success result validates against the method's result schema. */
export function checkResultSchema(exchange: Exchange, validate: SchemaCheck): Violation[] {
  const outcome = outcomeOf(exchange);
  if (outcome.kind !== 'result') return [];
  const problems = validate(outcome.result);
  if (problems.length === 0) return [];
  const shown = problems.slice(0, 5).map(formatViolation).join('; ');
  const more = problems.length > 5 ? ` (+${problems.length - 5} more)` : '';
  return [violation('result.schema', `${exchange.method} (id ${JSON.stringify(exchange.id)}): result does not match the result schema: ${shown}${more}`, exchange.id)];
}
