/**
 * The step gateway: the one way a feature moves a session. It holds the current-node check, the
 * optimistic session mutation (read, change, write if nobody wrote meanwhile, else again), the
 * step through the compiled machine (`runtime.step`, with the nodes that run by themselves) and
 * the one mapping of refusals to API errors. The client routes, documents, faces, liveness and
 * the analyses all go through it; node modules (`src/server/nodes/*`) reach the server through it.
 */
import {
  advanceFlow,
  notCurrent,
  type FlowNode,
  type NodeByType,
  type NodeType,
} from '../../core/flow';
import type { ErrorCode } from '../../core/api';
import type { Clock } from '../clock';
import { ApiError } from '../http/errors';
import type { SessionRecord, SessionStore } from '../store/types';
import {
  currentNode,
  isFinished,
  open,
  SESSION_ENDED,
  step,
  type Automatic,
  type StepInput,
  type StepRefusal,
} from './runtime';

export { ApiError, invalid } from '../http/errors';
export type { SessionRecord } from '../store/types';
export type { Automatic, AutomaticMove } from './runtime';
export { currentNode, isFinished, nodeById } from './runtime';

/** Why a node may not act: the machine's refusals, and a kind that does not take the request. */
export type RefusalReason = StepRefusal['reason'] | 'outcome_not_allowed';

export interface Refusal {
  reason: RefusalReason;
  message: string;
}

const REFUSAL_CODES = {
  finished: 'session_finished',
  not_current_node: 'node_not_current',
  unknown_outcome: 'outcome_unknown',
  outcome_not_allowed: 'outcome_not_allowed',
} as const satisfies Record<RefusalReason, ErrorCode>;

/**
 * The API error of a refusal: a `validation_error` with the refusal's own code.
 *
 * @example
 * refusalError({ reason: 'unknown_outcome', message: "'x' is not an outcome…" }).code; // 'outcome_unknown'
 */
export function refusalError(r: Refusal): ApiError {
  return new ApiError('validation_error', r.message, { code: REFUSAL_CODES[r.reason] });
}

/**
 * Throws `session_finished` when the session has ended.
 *
 * @example
 * requireOpen(session); // throws 'The session has already ended' once it is complete
 */
export function requireOpen(s: SessionRecord): void {
  if (isFinished(s)) throw refusalError({ reason: 'finished', message: SESSION_ENDED });
}

/**
 * The node `nodeId`, which must be the session's current node: else `session_finished` or
 * `node_not_current` ("node 'x' is not the current node; the current node is 'y'").
 *
 * @example
 * const node = requireCurrent(session, 'otp'); // node.type: 'two_factor_email'
 */
export function requireCurrent(s: SessionRecord, nodeId: string): FlowNode {
  if (isFinished(s) || s.position.status !== 'active') {
    throw refusalError({ reason: 'finished', message: SESSION_ENDED });
  }
  const refused = notCurrent(s.position, nodeId);
  if (refused) throw refusalError(refused);
  const node = currentNode(s);
  if (!node) {
    // A position naming a node its flow lacks: nothing can act on it.
    throw refusalError({
      reason: 'not_current_node',
      message: `node '${nodeId}' is not a node of this session's flow`,
    });
  }
  return node;
}

/**
 * The current node `nodeId`, which must be of one of `types`: else, besides the refusals of
 * `requireCurrent`, `outcome_not_allowed` with `elsewhere`'s message.
 *
 * @example
 * const node = requireCurrentOf(s, 'doc', ['document_scan'], (n) => `node 'doc' is a ${n.type} node`);
 */
export function requireCurrentOf<T extends NodeType>(
  s: SessionRecord,
  nodeId: string,
  types: readonly T[],
  elsewhere: (node: FlowNode) => string,
): NodeByType[T] {
  const node = requireCurrent(s, nodeId);
  if (!(types as readonly NodeType[]).includes(node.type)) {
    throw refusalError({ reason: 'outcome_not_allowed', message: elsewhere(node) });
  }
  return node as NodeByType[T];
}

/**
 * Throws `outcome_unknown` unless `outcome` is one of the current node `nodeId`'s outcomes, as the
 * compiled machine knows them ("'x' is not an outcome of the permissions node 'perm'; its
 * outcomes are …").
 *
 * @example
 * requireOutcome(session, 'perm', 'permissionsGranted'); // passes
 */
export function requireOutcome(s: SessionRecord, nodeId: string, outcome: string): void {
  const r = advanceFlow(s.settings.flow, s.position, { nodeId, outcome });
  if (!r.ok) throw refusalError(r);
}

/**
 * What a node does to the session it is on: `session` (the freshest copy, changed or not) and,
 * with `outcome`, the step it takes. Without `outcome` the node stays current.
 */
export interface NodeMove {
  session?: SessionRecord;
  outcome?: string;
  report?: Record<string, unknown>;
  inconclusiveReason?: string;
}

export interface MutateOptions {
  /** Who changes the session, for the error when it keeps changing under them. */
  what: string;
  tries?: number;
  /** The error when the session is gone (default: `not_found_error`). */
  missing?: () => Error;
}

export interface MoveOptions extends MutateOptions {
  /**
   * `refuse` (default): a request on a node that is no longer current is refused, as is a step
   * the machine refuses. `ignore`: a decision taken in the background (an analysis) finds the
   * session moved on and changes nothing: the first decision stands.
   */
  movedOn?: 'refuse' | 'ignore';
}

export interface StepGateway {
  /**
   * Applies `change` to the freshest copy of the session and stores it, reading again and
   * retrying when someone else wrote in between (the store's optimistic `rev`); `change` returns
   * its input to change nothing, or throws to refuse.
   */
  mutate(
    sessionId: string,
    change: (s: SessionRecord, now: number) => SessionRecord,
    o?: MutateOptions,
  ): Promise<SessionRecord>;
  /**
   * Moves node `nodeId` of the session: on the freshest copy, checks that it is current, asks
   * `decide` for the move (null: nothing), steps through the compiled machine and runs what
   * follows by itself. Refusals become their API errors (see `MoveOptions.movedOn`).
   */
  move(
    sessionId: string,
    nodeId: string,
    decide: (cur: SessionRecord, now: number) => NodeMove | null,
    o?: MoveOptions,
  ): Promise<SessionRecord>;
  /** The first opening of the page (`runtime.open`) with the nodes that run by themselves. */
  open(
    s: SessionRecord,
    now: number,
    seen: Pick<SessionRecord['report'], 'device' | 'location'>,
  ): SessionRecord;
}

export interface GatewayDeps {
  store: SessionStore;
  clock: Clock;
  /** The moves of the node kinds that run by themselves (from `SERVER_NODES`). */
  automatic: Automatic;
}

/**
 * The gateway over a store.
 *
 * @example
 * const gateway = createGateway({ store, clock, automatic });
 * await gateway.move(id, 'perm', () => ({ outcome: 'permissionsGranted' }), { what: 'a result' });
 */
export function createGateway(deps: GatewayDeps): StepGateway {
  const { store, clock, automatic } = deps;

  async function mutate(
    sessionId: string,
    change: (s: SessionRecord, now: number) => SessionRecord,
    o: MutateOptions = { what: 'a request' },
  ): Promise<SessionRecord> {
    for (let attempt = 0; attempt < (o.tries ?? 5); attempt++) {
      const s = await store.getSessionById(sessionId);
      if (!s) throw o.missing ? o.missing() : new ApiError('not_found_error', 'Session not found');
      const now = clock.now();
      const next = change(s, now);
      if (next === s) return s;
      const saved = await store.updateSession(s, next, now);
      if (saved) return saved;
    }
    throw new Error(`session ${sessionId} kept changing under ${o.what}`);
  }

  return {
    mutate,
    move(sessionId, nodeId, decide, o = { what: 'a request' }) {
      const ignore = o.movedOn === 'ignore';
      return mutate(
        sessionId,
        (cur, now) => {
          if (ignore) {
            const at = currentNode(cur);
            if (isFinished(cur) || !at || at.id !== nodeId) return cur;
          } else {
            requireCurrent(cur, nodeId);
          }
          const m = decide(cur, now);
          if (!m) return cur;
          const base = m.session ?? cur;
          if (m.outcome === undefined) return base;
          const input: StepInput = {
            nodeId,
            outcome: m.outcome,
            ...(m.report ? { report: m.report } : {}),
            ...(m.inconclusiveReason ? { inconclusiveReason: m.inconclusiveReason } : {}),
          };
          const r = step(base, input, now, automatic);
          if (r.ok) return r.session;
          if (ignore) return cur;
          throw refusalError(r);
        },
        o,
      );
    },
    open: (s, now, seen) => open(s, now, seen, automatic),
  };
}
