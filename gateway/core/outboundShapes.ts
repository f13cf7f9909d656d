import { type ContractSet, isPayloadless, type MethodContract, type SchemaAt } from './contract/contractSet.js';
import { absentValue, shape } from './contract/outboundShape.js';

/**
 * Fits what handlers, the agent and the server-request broker build to the loaded contract before it is checked
 * and sent (see `shape`): the same turn speaks a narrow document and the full one, whose outbound models list
 * every serialised field as required.
 */
export class OutboundShapes {
  constructor(private readonly contracts: ContractSet) {}

  private fit(value: unknown, at: SchemaAt): unknown {
    return shape(value, at.schema, this.contracts.resolverFor(at.document));
  }

  private absent(at: SchemaAt): unknown {
    return absentValue(at.schema, this.contracts.resolverFor(at.document));
  }

  result(method: MethodContract, value: unknown): unknown {
    return method.result ? this.fit(value, method.result) : value;
  }

  /** The payload to send for an event of `type` (undefined: the event carries none). Undeclared types pass unchanged. */
  event(type: string, payload: unknown): unknown {
    const declared = this.contracts.notifications.get(type)?.payload;
    if (!declared) return payload;
    if (isPayloadless(declared.schema)) return undefined;
    return this.fit(payload ?? {}, declared);
  }

  /** The params of a server request: the whole object fitted to its one slot, or each by-name slot to its descriptor. */
  params(request: MethodContract, params: Record<string, unknown>): Record<string, unknown> {
    const whole = request.shape === 'whole-object' ? request.params[0] : undefined;
    if (whole) return this.fit(params, whole.schema) as Record<string, unknown>;
    const fitted: Record<string, unknown> = {};
    for (const descriptor of request.params) {
      if (Object.hasOwn(params, descriptor.name)) fitted[descriptor.name] = this.fit(params[descriptor.name], descriptor.schema);
      else if (descriptor.required) {
        const absent = this.absent(descriptor.schema);
        if (absent !== undefined) fitted[descriptor.name] = absent;
      }
    }
    for (const [key, value] of Object.entries(params)) if (!Object.hasOwn(fitted, key)) fitted[key] = value;
    return fitted;
  }
}
