/**
 * The model of the Hermes session contract: small, explicit state and pure transitions. Sessions are runtime
 * sessions (live or closed, bound to a client connection or detached); rows are stored sessions (persisted on
 * the first prompt or title, deleted or not). Everything is referred to by index, never by id: ids belong to
 * the systems (see hermesPort.ts), so one model drives a target and a reference in lockstep.
 */

export type ClientName = 'a' | 'b';

export interface ModelSession {
  /** The stored row behind this runtime session. */
  readonly row: number;
  live: boolean;
  /** The client connection its events go to; null after that connection dropped. */
  boundTo: ClientName | null;
}

export interface ModelRow {
  /** Completed turns in the transcript (each one a user row and an assistant row). */
  turns: number;
  /** A row exists in the store (a create alone persists nothing). */
  persisted: boolean;
  /** The title the model knows for sure; null when the gateway chose it (lineage titles) or none was set. */
  title: string | null;
  /** The title is known to be empty (nothing set). */
  untitled: boolean;
  deleted: boolean;
  /**
   * The stored transcript is known to hold exactly `turns` turns. An undo changes the live transcript at once, but
   * upstream writes it to the store only with the next completed turn (the reference at once): until then a read of
   * the stored row (session.list, a resume of a closed session, session.branch_stored) may count either.
   */
  storedExact: boolean;
}

export interface HermesState {
  readonly sessions: ModelSession[];
  readonly rows: ModelRow[];
  /** Whether the second client is connected. */
  bOpen: boolean;
}

export const initialState = (): HermesState => ({ sessions: [], rows: [], bOpen: false });

export const messagesOf = (row: ModelRow): number => 2 * row.turns;

/** Indexes of the sessions that satisfy `test`. */
export function sessionsWhere(state: Readonly<HermesState>, test: (session: ModelSession, index: number) => boolean): number[] {
  return state.sessions.flatMap((session, index) => (test(session, index) ? [index] : []));
}

export function rowsWhere(state: Readonly<HermesState>, test: (row: ModelRow, index: number) => boolean): number[] {
  return state.rows.flatMap((row, index) => (test(row, index) ? [index] : []));
}

/** The `pick`-th of `candidates` (modulo), or undefined when there is none: how generated indexes refer to model objects. */
export function choose(candidates: readonly number[], pick: number): number | undefined {
  return candidates.length === 0 ? undefined : candidates[pick % candidates.length];
}

export const isOpen = (state: Readonly<HermesState>, client: ClientName): boolean => client === 'a' || state.bOpen;

/** A live session whose events reach an open client: the only kind a turn can be observed on. */
export const isAttached = (state: Readonly<HermesState>, session: ModelSession): boolean => session.live && session.boundTo !== null && isOpen(state, session.boundTo);

export const liveSessionOfRow = (state: Readonly<HermesState>, row: number): number | undefined => {
  const index = state.sessions.findIndex((session) => session.live && session.row === row);
  return index < 0 ? undefined : index;
};

// Transitions.

export function created(state: HermesState, title: string | null): void {
  state.rows.push({ turns: 0, persisted: false, title, untitled: title === null, deleted: false, storedExact: true });
  state.sessions.push({ row: state.rows.length - 1, live: true, boundTo: 'a' });
}

export function turnsDone(state: HermesState, session: number, turns: number): void {
  const row = state.rows[state.sessions[session]?.row ?? -1];
  if (!row) return;
  row.turns += turns;
  row.persisted = true;
  if (turns > 0) row.storedExact = true;
}

/** A prompt reached the session (its turn was interrupted before it completed): the stored row exists, with no new turn. */
export function prompted(state: HermesState, session: number): void {
  const row = state.rows[state.sessions[session]?.row ?? -1];
  if (row) row.persisted = true;
}

/** session.reset: the transcript is emptied, in the store too. */
export function emptied(state: HermesState, session: number): void {
  const row = state.rows[state.sessions[session]?.row ?? -1];
  if (!row) return;
  row.turns = 0;
  row.storedExact = true;
}

/** session.undo on an idle session: its last turn leaves the live transcript. */
export function undone(state: HermesState, session: number): void {
  const row = state.rows[state.sessions[session]?.row ?? -1];
  if (!row || row.turns === 0) return;
  row.turns -= 1;
  row.storedExact = false;
}

export function closed(state: HermesState, session: number): void {
  const target = state.sessions[session];
  if (target) target.live = false;
}

/** A stored row resumed: its live session rebound to `client`, or a new runtime session. */
export function resumed(state: HermesState, row: number, client: ClientName): void {
  const live = liveSessionOfRow(state, row);
  if (live !== undefined) (state.sessions[live] as ModelSession).boundTo = client;
  else state.sessions.push({ row, live: true, boundTo: client });
}

export function activated(state: HermesState, session: number, client: ClientName): void {
  const target = state.sessions[session];
  if (target?.live) target.boundTo = client;
}

export function deleted(state: HermesState, row: number): void {
  const target = state.rows[row];
  if (target && target.persisted && liveSessionOfRow(state, row) === undefined) target.deleted = true;
}

export function titled(state: HermesState, session: number, title: string): void {
  const row = state.rows[state.sessions[session]?.row ?? -1];
  if (!row) return;
  row.title = title;
  row.untitled = false;
  row.persisted = true;
}

/** A branch child: a persisted row with the parent's turns, live and bound to `client`. */
export function branched(state: HermesState, parent: number, client: ClientName, name: string | null): void {
  const parentRow = state.rows[state.sessions[parent]?.row ?? -1];
  if (!parentRow || parentRow.turns === 0) return;
  state.rows.push({ turns: parentRow.turns, persisted: true, title: name, untitled: false, deleted: false, storedExact: true });
  state.sessions.push({ row: state.rows.length - 1, live: true, boundTo: client });
}

/** session.branch_stored of a stored row with turns: a persisted child with the stored transcript, live on client a. */
export function branchedStored(state: HermesState, parent: number): void {
  const parentRow = state.rows[parent];
  // A deleted or never persisted row is not found (4007), an empty one has nothing to branch: no child either way.
  if (!parentRow || parentRow.deleted || !parentRow.persisted || parentRow.turns === 0 || !parentRow.storedExact) return;
  state.rows.push({ turns: parentRow.turns, persisted: true, title: null, untitled: false, deleted: false, storedExact: true });
  state.sessions.push({ row: state.rows.length - 1, live: true, boundTo: 'a' });
}

/** A client connection dropped: the sessions bound to it are detached (still live, within the orphan grace window). */
export function dropped(state: HermesState, client: ClientName): void {
  for (const session of state.sessions) if (session.boundTo === client) session.boundTo = null;
  if (client === 'b') state.bOpen = false;
}

export function attachedB(state: HermesState): void {
  state.bOpen = true;
}
