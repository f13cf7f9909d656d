import { rpcIdKey, rpcIdText, type Exchange, type RpcId } from '../../core/index.js';
import { clipText } from './clipText.js';

/** Further answers kept per exchange (a target answering a hundred times is reported from the first few). */
const MAX_DUPLICATES_KEPT = 4;

/** Exchanges with more text than this are held weakly. */
const WEAK_ABOVE_CHARS = 16 * 1024;

interface Settled {
  /**
   * Weak for a large exchange: remembering a request must not keep a huge answer alive after the caller dropped
   * it. A small one is held as it is (a WeakRef costs the collector more than the few KiB it could free).
   */
  exchange: WeakRef<Exchange> | Exchange;
  answered: boolean;
  /** The id as text, for the loose lookup (none for a null id). */
  text: string | undefined;
}

/**
 * The last requests of a connection that were settled (answered, timed out or failed), so that a second answer
 * to one of them, or an answer after its timeout, is recognised as such and never taken for the answer of the
 * request that is open at that moment.
 */
export class AnsweredRequests {
  private readonly byKey = new Map<string, Settled>();
  private readonly byText = new Map<string, string>();

  constructor(private readonly max = 256) {}

  /** `key` is `rpcIdKey(exchange.id)`, when the caller has it. */
  remember(exchange: Exchange, key = rpcIdKey(exchange.id)): void {
    // Servers answer unparseable frames with id null, so a null id never identifies one request.
    if (exchange.id === null) return;
    this.forgetKey(exchange.id, key);
    const text = rpcIdText(exchange.id);
    const chars = exchange.requestText.length + (exchange.responseText?.length ?? 0);
    this.byKey.set(key, { exchange: chars > WEAK_ABOVE_CHARS ? new WeakRef(exchange) : exchange, answered: exchange.response !== undefined, text });
    if (text !== undefined) this.byText.set(text, key);
    const [oldest, dropped] = this.byKey.size > this.max ? (this.byKey.entries().next().value ?? []) : [];
    if (oldest !== undefined && dropped) {
      this.byKey.delete(oldest);
      if (dropped.text !== undefined && this.byText.get(dropped.text) === oldest) this.byText.delete(dropped.text);
    }
  }

  /** A request id is about to be reused: answers for it belong to the new request. `key` is `rpcIdKey(id)`. */
  forget(id: RpcId, key = rpcIdKey(id)): void {
    if (this.byKey.size > 0) this.forgetKey(id, key);
  }

  private forgetKey(id: RpcId, key: string): void {
    this.byKey.delete(key);
    const text = rpcIdText(id);
    if (text !== undefined && this.byText.get(text) === key) this.byText.delete(text);
  }

  /**
   * Whether an answer with this id belongs to a settled request (same id, or the same id as text); when that
   * request had already been answered, the answer is noted on its exchange as a repeat, else as its late answer.
   */
  claim(id: unknown, text: string): boolean {
    const key = rpcIdKey(id);
    if (key === undefined || id === null) return false;
    const idText = rpcIdText(id);
    const looseKey = idText === undefined ? undefined : this.byText.get(idText);
    const settled = this.byKey.get(key) ?? (looseKey === undefined ? undefined : this.byKey.get(looseKey));
    if (!settled) return false;
    const exchange = settled.exchange instanceof WeakRef ? settled.exchange.deref() : settled.exchange;
    if (exchange && settled.answered) {
      const kept = (exchange.duplicateAnswers ??= []);
      if (kept.length < MAX_DUPLICATES_KEPT) kept.push(clipText(text));
    } else if (exchange && exchange.lateAnswer === undefined) {
      exchange.lateAnswer = clipText(text);
    }
    return true;
  }
}
