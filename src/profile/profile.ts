import type { BindingRules } from '../binding/bindingRules.js';
import type { CheckDefinition } from '../checks/checkCatalogue.js';
import type { CodeProfile } from '../checks/codeProfile.js';
import type { ConnectionAuth } from '../client/connectionAuth.js';
import type { WireDialect } from '../../core/wireDialect.js';
import type { Contract } from '../contracts/contractModel.js';
import type { CellDeclaration } from '../run/cellTypes.js';
import type { RunPlan } from '../run/runPlan.js';
import type { ReferenceGateway } from './referenceGateway.js';
import type { ProfileAuth } from './profileAuth.js';
import type { StatefulReplayer } from './statefulReplayer.js';

/**
 * A family of gateways: what the generic harness needs to know about a target beyond JSON-RPC 2.0 and its OpenRPC
 * document. The harness core names no method, code or frame of any family; everything of that kind comes from
 * here. `profiles/json-rpc` is the default for any document; the others are listed once, in `profiles/index.ts`.
 */
export interface Profile {
  /** `--profile <name>`; also the `extends` of a user's profile file. */
  readonly name: string;
  /** One line for `--help` and reports. */
  readonly description: string;
  /** Error codes and their wording: what a rejection, a domain error and a server error look like. */
  readonly codes: CodeProfile;
  /**
   * Whether a document is this profile's own; a run without `--profile` takes the first registered profile that
   * recognises its first contract (the generic profile recognises every document).
   */
  recognises(contract: Contract): boolean;
  /** The documents a run uses when it is given none (meaningful for the registry's default profile). */
  readonly defaultContracts: readonly string[];
  /** Extension documents served and used beside the target's when the run names none. */
  defaultExtensions(contracts: readonly Contract[]): readonly string[];
  /** Identifier binding rules when the run asks for `auto`: the live objects a method refers to. */
  bindingsFor(contract: Contract): BindingRules;
  /** The wire beyond JSON-RPC: the first frame, how events travel, which calls are cheap probes. */
  readonly wire: ProfileWire;
  /** Checks the profile adds to the generic catalogue (its scenarios, auth boundary, stateful runs). */
  readonly checks: readonly CheckDefinition[];
  /** The cells that apply those checks (spec families of their own), before `--grep`/`--shard` selection. */
  cells(plan: RunPlan): CellDeclaration[];
  /** How a gated target is discovered and logged into; absent: a token or nothing. */
  readonly auth?: ProfileAuth;
  /** The gateway a run embeds when it is given no target. */
  readonly referenceGateway?: ReferenceGateway;
  /** Replays a stateful counterexample recorded by one of the profile's stateful checks. */
  readonly statefulReplay?: StatefulReplayer;
}

export interface ProfileWire {
  /** How notifications are read as events, and which first frame a connection waits for. */
  readonly dialect: WireDialect;
  /** A call every target of the family answers cheaply, whatever its contract (connection survival, backlog drain). */
  readonly probe: { readonly method: string; readonly params: unknown };
  /** Methods the target answers before dispatch, without its contract (never judged against the document). */
  readonly inlineMethods: readonly string[];
  /** How long a connection waits for the dialect's first frame by default. */
  readonly readyTimeoutMs: number;
}

/** The auth a run resolved, as the connections use it. */
export interface ResolvedAuth {
  readonly connection: ConnectionAuth;
}
