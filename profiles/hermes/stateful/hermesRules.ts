import type { ModelRule } from '../../../src/stateful/engine/statefulTypes.js';

/**
 * The rules of the Hermes session model, one line each (spec/hermes-wire.md §3–4 and SHARED_SESSION_WIRE): every
 * postcondition of a command names one of them. The README's table is rendered from this list.
 */
export const HERMES_RULES = [
  { id: 'ids.fresh', rule: 'session.create, a resume of a closed session and every branch (session.branch, branch_whole, branch_stored) hand out runtime and stored ids never handed out before.' },
  { id: 'create.empty', rule: 'A new session has message_count 0 and no messages.' },
  { id: 'turn.runs-once', rule: 'prompt.submit on an idle session answers streaming and its turn ends with message.complete; a second prompt sent while it runs is queued and runs too: neither lost nor run twice.' },
  { id: 'history.count', rule: 'session.history count and messages hold two rows per completed turn.' },
  { id: 'close.once', rule: 'session.close of a live session answers closed: true; every later close answers closed: false or 4001.' },
  { id: 'closed.gone', rule: 'A closed runtime id answers 4001 to history, usage, status, context_breakdown, terminal.resize and activate, every time.' },
  { id: 'resume.same', rule: 'Resuming a row whose session is closed gives a new runtime id with the stored message_count and messages; a row whose session is live resumes to that same runtime id.' },
  { id: 'delete.live-refused', rule: 'session.delete of a row with a live session answers 4023 every time; without one it deletes ({deleted}); a deleted or never persisted row answers 4007.' },
  { id: 'list.rows', rule: 'session.list shows every persisted, undeleted row with message_count = two per turn and its title; never a deleted row.' },
  { id: 'active.live', rule: 'session.active_list shows every live session with message_count = two per turn of its transcript, and no closed one.' },
  { id: 'recent.listable', rule: 'session.most_recent names a persisted, undeleted row (one of the model\'s, or another client\'s), and null only when no row is listable.' },
  { id: 'title.kept', rule: 'session.title set answers the title, and a read answers the last title set (also after close and resume).' },
  { id: 'branch.copy', rule: "session.branch and session.branch_whole copy the parent's whole transcript (branch echoes it, branch_whole counts it), name the parent's stored id and open a live child; session.branch_stored does the same from a stored row; a parent without a turn answers 4008, a missing stored row 4007." },
  { id: 'undo.last-turn', rule: 'session.undo of an idle session removes its last turn (removed: 2; 0 when it has none): history, usage and later reads count one turn less.' },
  { id: 'reset.empties', rule: 'session.reset (session-hooks extension) of an idle session answers reset: true and empties its transcript: history, list and a resume count no turn.' },
  { id: 'interrupt.stops', rule: 'session.interrupt of a running turn ends it (status interrupted, message.complete with status interrupted) without adding a turn; of an idle session it claims no stopped turn and changes nothing.' },
  { id: 'redirect.idle', rule: 'session.redirect of an idle session is rejected (or 4010 where the agent cannot redirect) and starts no turn.' },
  { id: 'readout.live', rule: 'session.status, session.context_breakdown and terminal.resize answer for a live session (resize echoes the columns asked for).' },
  { id: 'usage.counts', rule: 'session.usage counts at least one call per completed turn of the transcript, before and after a resume.' },
  { id: 'steer.target', rule: 'session.steer during a running turn is accepted (status queued) for that session; on an idle session it is rejected, every time.' },
  { id: 'since.replay', rule: "session.events.since returns only the asked session's events, with seq contiguous from last_seen + 1 to latest_seq, count = events, latest_seq ≥ every seq received live." },
  { id: 'seq.live', rule: 'Live events of a session carry seq increasing by exactly one, across reconnects and a second client attaching.' },
  { id: 'request.answered', rule: "A server request a turn asks reaches the session's client; its answer reaches the turn (the turn completes with it)." },
] as const satisfies readonly ModelRule[];

export type HermesRuleId = (typeof HERMES_RULES)[number]['id'];

/** A violation message prefixed with its rule. */
export const broke = (rule: HermesRuleId, message: string): string => `[${rule}] ${message}`;
