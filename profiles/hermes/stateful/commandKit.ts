import * as fc from 'fast-check';
import { type Exchange, isJsonObject, type JsonObject, type JsonValue } from '../../../core/index.js';
import * as m from './hermesModel.js';
import type { HermesState } from './hermesModel.js';
import { type Expect, outcomeClass, resultOf } from './hermesObserve.js';
import type { HermesPort } from './hermesPort.js';
import { broke } from './hermesRules.js';
import { HermesErrorCode } from '../errorCodes.js';

/** What the commands of the Hermes session model share: argument readers, session choosers, waits. */
export const MAX_SESSIONS = 8;
export const { DELETE_ACTIVE, STORED_SESSION_NOT_FOUND: STORED_NOT_FOUND, SESSION_NOT_FOUND, NOTHING_TO_BRANCH } = HermesErrorCode;

export const pick = fc.nat({ max: 63 });
export const word = fc.stringMatching(/^[a-z]{1,8}( [a-z]{1,8})?$/);
export const num = (args: JsonObject, key: string): number => (typeof args[key] === 'number' ? args[key] : 0);
export const text = (args: JsonObject, key: string): string => (typeof args[key] === 'string' ? args[key] : '');
export const optionalText = (args: JsonObject, key: string): string | null => (typeof args[key] === 'string' ? args[key] : null);
export const client = (args: JsonObject): m.ClientName => (args['client'] === 'b' ? 'b' : 'a');

export const attached = (state: Readonly<HermesState>): number[] => m.sessionsWhere(state, (session) => m.isAttached(state, session));
export const live = (state: Readonly<HermesState>): number[] => m.sessionsWhere(state, (session) => session.live);
export const any = (state: Readonly<HermesState>): number[] => state.sessions.map((_, index) => index);
export const closedOnes = (state: Readonly<HermesState>): number[] => m.sessionsWhere(state, (session) => !session.live);

export const sessionOf = (state: Readonly<HermesState>, candidates: (state: Readonly<HermesState>) => number[], args: JsonObject): number | undefined => m.choose(candidates(state), num(args, 's'));
export const rowOfSession = (state: Readonly<HermesState>, session: number): m.ModelRow => state.rows[state.sessions[session]?.row ?? -1] as m.ModelRow;
export const boundClient = (state: Readonly<HermesState>, session: number): m.ClientName => state.sessions[session]?.boundTo ?? 'a';

export const isError = (exchange: Exchange, code: number): boolean => outcomeClass(exchange) === `error ${code}`;
export const shown = (exchange: Exchange): string => (exchange.responseText ?? exchange.failure?.message ?? '(nothing)').slice(0, 200);

/** Registers a new id in the book (a placeholder when the call failed, so model indexes stay aligned). */
export function register(list: string[], port: HermesPort, id: JsonValue | undefined, expect: Expect, what: string): void {
  if (typeof id === 'string') {
    expect.that(!port.ids.issued.has(id), () => broke('ids.fresh', `${what} handed out ${port.ids.refOf(id)}'s id ${id} again`));
    port.ids.issued.add(id);
    list.push(id);
  } else {
    list.push(`(no ${what} id at step)`);
  }
}

/** Waits for the `session.info` that follows a create, resume or branch (the agent build), so that the next step starts settled. */
export async function settleInfo(port: HermesPort, on: m.ClientName, sessionId: string, since: number): Promise<void> {
  await port.waitEvent(on, { type: 'session.info', sessionId, since }, port.settleTimeoutMs);
}

/** Waits until `count` message.complete events of the session arrived after `since`; returns their payloads. */
export async function completions(port: HermesPort, on: m.ClientName, sessionId: string, since: number, count: number): Promise<JsonObject[]> {
  const done = (): JsonObject[] => port.eventsSince(on, sessionId, since).filter((event) => event.type === 'message.complete').map((event) => (isJsonObject(event.payload) ? event.payload : {}));
  await port.waitEvent(on, { type: 'message.complete', sessionId, since, where: () => done().length >= count }, port.turnTimeoutMs);
  return done();
}

/** The transcript length session.history reports right after a command that changed it (null when it answered no count). */
export async function historyCount(port: HermesPort, on: m.ClientName, sessionId: string): Promise<number | null> {
  const count = resultOf(await port.call(on, 'session.history', { session_id: sessionId }))?.['count'];
  return typeof count === 'number' ? count : null;
}
