import type { RpcId } from '../rpc/messages.js';
import { clipText } from './clipText.js';
import type { Exchange } from './exchange.js';

/** Further answers kept per exchange (a target answering a hundred times is reported from the first few). */
const MAX_DUPLICATES_KEPT = 4;

/**
 * The last requests of a connection that were settled (answered, timed out or failed), so that a second answer
 * to one of them, or an answer after its timeout, is recognised as such and never taken for the answer of the
 * request that is open at that moment.
 */
export class AnsweredRequests {
  private readonly byKey = new Map<string, Exchange>();
  private readonly byText = new Map<string, string>();

  constructor(private readonly max = 256) {}

  remember(exchange: Exchange): void {
    // Servers answer unparseable frames with id null, so a null id never identifies one request.
    if (exchange.id === null) return;
    const key = JSON.stringify(exchange.id);
    this.forget(exchange.id);
    this.byKey.set(key, exchange);
    this.byText.set(String(exchange.id), key);
    const oldest = this.byKey.size > this.max ? this.byKey.keys().next().value : undefined;
    if (oldest !== undefined) {
      const dropped = this.byKey.get(oldest);
      this.byKey.delete(oldest);
      if (dropped && this.byText.get(String(dropped.id)) === oldest) this.byText.delete(String(dropped.id));
    }
  }

  /** A request id is about to be reused: answers for it belong to the new request. */
  forget(id: RpcId): void {
    const key = JSON.stringify(id);
    this.byKey.delete(key);
    if (id !== null && this.byText.get(String(id)) === key) this.byText.delete(String(id));
  }

  /** The settled exchange an answer with this id belongs to (same id, or the same id as text). */
  find(id: unknown): Exchange | undefined {
    if (id === undefined || id === null) return undefined;
    const exact = this.byKey.get(JSON.stringify(id));
    if (exact) return exact;
    const key = this.byText.get(String(id));
    return key === undefined ? undefined : this.byKey.get(key);
  }

  /** Notes another answer on an exchange that already had one (a request gets exactly one response). */
  static addDuplicate(exchange: Exchange, text: string): void {
    const kept = (exchange.duplicateAnswers ??= []);
    if (kept.length < MAX_DUPLICATES_KEPT) kept.push(clipText(text));
  }
}
