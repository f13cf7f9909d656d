import { DEFAULT_MODEL } from '../fakeAgent.js';
import { ErrorCode, GatewayError } from '../wireErrors.js';
import type { SessionLifecycle } from '../sessionLifecycle.js';
import { type HandlerTable, int, str } from './handlerTypes.js';

function render(template: string, variables: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(variables, name)) return whole;
    const value = variables[name];
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

export interface OneshotDeps {
  readonly sessions: SessionLifecycle;
}

export function oneshotHandlers({ sessions }: OneshotDeps): HandlerTable {
  return {
    /** Deterministic: `oneshot(<model>): <rendered template, or instructions + input>`, cut at 4 chars per token. */
    'llm.oneshot': (params) => {
      const template = str(params['template']) || undefined;
      const parts = [str(params['instructions']), str(params['input'])].filter((part): part is string => !!part);
      if (template === undefined && parts.length === 0) {
        throw new GatewayError(ErrorCode.ONESHOT_INPUT_REQUIRED, 'llm.oneshot needs a template or instructions / input');
      }
      const temperature = params['temperature'];
      if (typeof temperature === 'number' && (temperature < 0 || temperature > 2)) {
        throw new GatewayError(ErrorCode.ONESHOT_OPTION_INVALID, 'temperature must be between 0 and 2');
      }
      const maxTokens = int(params['max_tokens']);
      if (maxTokens !== undefined && maxTokens < 1) throw new GatewayError(ErrorCode.ONESHOT_OPTION_INVALID, 'max_tokens must be at least 1');
      const sessionId = str(params['session_id']);
      const model = sessionId ? sessions.require(sessionId).model : DEFAULT_MODEL;
      const variables = (params['variables'] ?? {}) as Record<string, unknown>;
      const body = template !== undefined ? render(template, variables) : parts.join('\n');
      const text = `oneshot(${model}): ${body}`;
      return { text: maxTokens === undefined ? text : text.slice(0, maxTokens * 4) };
    },
  };
}
