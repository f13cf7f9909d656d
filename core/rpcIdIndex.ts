import type { RpcId } from './jsonRpc.js';
import { rpcIdKey, rpcIdText } from './rpcId.js';

/** Entries per key, oldest first; a lone entry is held as it is (ids are nearly always unique). */
class OldestFirst<T> {
  private readonly held = new Map<string, T | T[]>();

  add(key: string, entry: T): void {
    const held = this.held.get(key);
    if (held === undefined) this.held.set(key, entry);
    else if (Array.isArray(held)) held.push(entry);
    else this.held.set(key, [held, entry]);
  }

  delete(key: string, entry: T): void {
    const held = this.held.get(key);
    if (held === entry) this.held.delete(key);
    else if (Array.isArray(held)) {
      const rest = held.filter((other) => other !== entry);
      if (rest.length === 0) this.held.delete(key);
      else this.held.set(key, rest.length === 1 ? (rest[0] as T) : rest);
    }
  }

  oldest(key: string | undefined): T | undefined {
    const held = key === undefined ? undefined : this.held.get(key);
    return Array.isArray(held) ? held[0] : held;
  }
}

/**
 * Open requests found by the id of an answer under the rule of `rpcId.ts`: exactly, else loosely, the oldest first
 * when several share an id. Both the client and the proxy hold their open requests in one.
 */
export class RpcIdIndex<T extends { readonly id: RpcId }> {
  private readonly entries = new Set<T>();
  private readonly byKey = new OldestFirst<T>();
  private readonly byText = new OldestFirst<T>();

  get size(): number {
    return this.entries.size;
  }

  add(entry: T): void {
    this.entries.add(entry);
    this.byKey.add(rpcIdKey(entry.id), entry);
    const text = rpcIdText(entry.id);
    if (text !== undefined) this.byText.add(text, entry);
  }

  /** False when the entry was not held. */
  delete(entry: T): boolean {
    if (!this.entries.delete(entry)) return false;
    this.byKey.delete(rpcIdKey(entry.id), entry);
    const text = rpcIdText(entry.id);
    if (text !== undefined) this.byText.delete(text, entry);
    return true;
  }

  /** The oldest entry with exactly this id. */
  exact(id: unknown): T | undefined {
    return this.byKey.oldest(rpcIdKey(id));
  }

  /** The oldest entry whose id reads the same as text ("7" and 7). */
  loose(id: unknown): T | undefined {
    return this.byText.oldest(rpcIdText(id));
  }

  /** The entry when there is exactly one. */
  sole(): T | undefined {
    if (this.entries.size !== 1) return undefined;
    const [only] = this.entries;
    return only;
  }

  /** Oldest first. */
  values(): IterableIterator<T> {
    return this.entries.values();
  }
}
