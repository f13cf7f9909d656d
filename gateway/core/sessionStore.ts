import { randomUUID } from 'node:crypto';

/** One durable transcript row. */
export interface StoredMessage {
  readonly row_id: number;
  readonly role: string;
  readonly text: string;
  readonly timestamp: number;
  readonly display_kind?: string;
}

export interface StoredRow {
  readonly key: string;
  title: string;
  hidden: boolean;
  readonly source: string;
  readonly startedAt: number;
  lastActive: number;
  messages: StoredMessage[];
  readonly parent: string | null;
  cwd: string | null;
  model: string;
}

export interface NewRow {
  readonly key: string;
  readonly title?: string;
  readonly hidden?: boolean;
  readonly source?: string;
  readonly parent?: string | null;
  readonly cwd?: string | null;
  readonly model: string;
  /** Already numbered with {@link SessionStore.message}. */
  readonly messages?: readonly StoredMessage[];
}

/** Sources that never show in the human-facing list (sub-agent and kanban sessions). */
const DENIED_SOURCES = new Set(['subagent', 'sub-agent', 'kanban']);

/** The "database": stored session rows, kept across restarts of the reference gateway. */
export class SessionStore {
  private readonly rows = new Map<string, StoredRow>();
  /** Keys handed out to live sessions whose row does not exist yet. */
  private readonly reserved = new Set<string>();
  private nextRowId = 1;

  /** The last second formatted, and its text: keys minted in the same second share the formatting. */
  private stamped: { second: number; text: string } = { second: Number.NaN, text: '' };

  constructor(private readonly now: () => number) {}

  private stampOf(ms: number): string {
    const second = Math.floor(ms / 1000);
    if (this.stamped.second !== second) this.stamped = { second, text: new Date(second * 1000).toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15) };
    return this.stamped.text;
  }

  /** Hermes's `_new_session_key` format: `YYYYMMDD_HHMMSS_<6 hex>`. */
  newKey(): string {
    for (;;) {
      const stamp = this.stampOf(this.now());
      const key = `${stamp}_${randomUUID().slice(0, 6)}`;
      if (!this.rows.has(key) && !this.reserved.has(key)) {
        this.reserved.add(key);
        return key;
      }
    }
  }

  get(key: string): StoredRow | undefined {
    return this.rows.get(key);
  }

  /** The most recent row with exactly this title. */
  findByTitle(title: string): StoredRow | undefined {
    return this.recentFirst().find((row) => row.title === title);
  }

  create(init: NewRow): StoredRow {
    const at = this.now() / 1000;
    const row: StoredRow = {
      key: init.key,
      title: init.title ?? '',
      hidden: init.hidden ?? false,
      source: init.source ?? '',
      startedAt: at,
      lastActive: at,
      messages: [],
      parent: init.parent ?? null,
      cwd: init.cwd ?? null,
      model: init.model,
    };
    row.messages.push(...(init.messages ?? []));
    this.rows.set(row.key, row);
    this.reserved.delete(row.key);
    return row;
  }

  /** Numbers a transcript row (row ids are unique across the store). */
  message(message: Omit<StoredMessage, 'row_id'>): StoredMessage {
    // Fields named, no spread: a spread-then-extended literal gets a hidden class of its own, one per stored message.
    const row_id = this.nextRowId++;
    const { role, text, timestamp, display_kind } = message;
    return display_kind === undefined ? { role, text, timestamp, row_id } : { role, text, timestamp, display_kind, row_id };
  }

  append(row: StoredRow, ...messages: StoredMessage[]): void {
    row.messages.push(...messages);
    row.lastActive = this.now() / 1000;
  }

  delete(key: string): boolean {
    return this.rows.delete(key);
  }

  recentFirst(): StoredRow[] {
    return [...this.rows.values()].reverse();
  }

  /** Rows for `session.list` / `session.most_recent`: human-facing, newest first. */
  listable(includeHidden: boolean): StoredRow[] {
    return this.recentFirst().filter((row) => (includeHidden || !row.hidden) && !DENIED_SOURCES.has(row.source));
  }

  size(): number {
    return this.rows.size;
  }
}

/** The renderer projection of a stored row (`TranscriptMessage`). */
export function projectMessage(message: StoredMessage): Record<string, unknown> {
  const projected: Record<string, unknown> = {
    role: message.role,
    text: message.text,
    timestamp: message.timestamp,
    row_id: message.row_id,
  };
  if (message.display_kind !== undefined) projected['display_kind'] = message.display_kind;
  return projected;
}

export function previewOf(messages: readonly StoredMessage[]): string {
  const first = messages.find((message) => message.role === 'user' && message.display_kind !== 'hidden');
  return (first?.text ?? '').slice(0, 80);
}
