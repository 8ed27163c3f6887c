/**
 * How a stored session moves: every step goes through the core's `advanceFlow` (the compiled
 * machine), nodes that need no user run here at once (their kinds' `automatic` steps, given by the
 * caller), and the session's status, timestamps, node reports and `isVerified` follow the position.
 * Pure functions over `SessionRecord`; features reach them through the step gateway.
 */
import type { StoredNodeReport as NodeReport } from '../../core/api';
import {
  advanceFlow,
  endReasonOf,
  isVerified,
  type EndReason,
  type FlowNode,
  type FlowPosition,
} from '../../core/flow';
import type { SessionRecord } from '../store/types';

/** The message of every refusal on an ended session. */
export const SESSION_ENDED = 'The session has already ended';

export type StepRefusal = {
  ok: false;
  reason: 'finished' | 'not_current_node' | 'unknown_outcome';
  message: string;
};
export type StepResult = { ok: true; session: SessionRecord } | StepRefusal;

export interface StepInput {
  nodeId: string;
  outcome: string;
  report?: Record<string, unknown>;
  inconclusiveReason?: string;
}

/**
 * What the server does by itself on a node nobody acts on: the outcome it selects with the node
 * report, or, when no outcome takes the result, the end of the flow (`incomplete`) with what the
 * path records for the node.
 */
export type AutomaticMove =
  | { outcome: string; report: Record<string, unknown> }
  | {
      outcome: null;
      recorded: { outcome: string; result?: 'passed' | 'failed' };
      report: Record<string, unknown>;
    };

/** The automatic move of a node, or null when a user acts on it (the server waits). */
export type Automatic = (node: FlowNode, s: SessionRecord, now: number) => AutomaticMove | null;

/**
 * The node of a flow with that id.
 *
 * @example
 * nodeById(session.settings.flow, 'otp')?.type; // 'two_factor_email'
 */
export function nodeById(flow: readonly FlowNode[], id: string | null): FlowNode | undefined {
  return id === null ? undefined : flow.find((n) => n.id === id);
}

/** The session's current node, when it is on one. */
export function currentNode(s: SessionRecord): FlowNode | undefined {
  return s.position.status === 'active' ? nodeById(s.settings.flow, s.position.nodeId) : undefined;
}

export const isFinished = (s: SessionRecord): boolean =>
  s.status === 'complete' || s.status === 'incomplete';

/**
 * The reason of an incomplete ending that names none: the last node's outcome (it had no target),
 * read with that node's report (a camera that was missing).
 */
function endingReason(s: SessionRecord, position: FlowPosition): EndReason {
  const last = position.path[position.path.length - 1];
  if (!last) return 'stopped';
  const report = [...s.report.nodeReports].reverse().find((r) => r.nodeId === last.nodeId);
  return endReasonOf({
    type: last.type,
    outcome: last.outcome,
    inconclusiveReason: report?.inconclusiveReason,
    report: report?.report,
  });
}

function withEnd(s: SessionRecord, position: FlowPosition, now: number): SessionRecord {
  if (position.status === 'active') return { ...s, position };
  const status = position.status === 'complete' ? 'complete' : 'incomplete';
  const ended: FlowPosition =
    status === 'incomplete' && !position.endReason
      ? { ...position, endReason: endingReason(s, position) }
      : position;
  return {
    ...s,
    position: ended,
    status,
    finishedAt: now,
    report: { ...s.report, isVerified: isVerified(position.path, position.status) },
  };
}

function addNodeReport(s: SessionRecord, r: NodeReport): SessionRecord {
  return { ...s, report: { ...s.report, nodeReports: [...s.report.nodeReports, r] } };
}

/**
 * Runs the nodes nobody has to act on (those `automatic` moves) until the position rests on a
 * node a user acts on, or the flow ends.
 *
 * @example
 * const ready = settle(session, Date.now(), automatic);
 */
export function settle(s: SessionRecord, now: number, automatic: Automatic): SessionRecord {
  let cur = s;
  for (let guard = 0; guard <= cur.settings.flow.length; guard++) {
    const node = currentNode(cur);
    const move = node ? automatic(node, cur, now) : null;
    if (!node || !move) return cur;
    if (move.outcome === null) {
      // No outcome takes this result: the flow cannot go on, the session ends incomplete.
      const position: FlowPosition = {
        nodeId: null,
        nodeType: null,
        status: 'incomplete',
        path: [...cur.position.path, { nodeId: node.id, type: node.type, ...move.recorded }],
      };
      cur = addNodeReport(cur, {
        nodeId: node.id,
        type: node.type,
        outcome: move.recorded.outcome,
        createdAt: now,
        report: move.report,
      });
      return withEnd(cur, position, now);
    }
    const stepped = step(cur, { nodeId: node.id, outcome: move.outcome, report: move.report }, now);
    if (!stepped.ok) return cur;
    cur = stepped.session;
  }
  return cur;
}

/**
 * Moves the session by one node outcome, checked by the compiled machine; records the node report,
 * runs what follows by itself (`automatic`, when given) and ends the session when the flow ends.
 *
 * @example
 * const r = step(session, { nodeId: 'perm', outcome: 'permissionsGranted' }, Date.now(), automatic);
 * if (r.ok) session = r.session;
 */
export function step(
  s: SessionRecord,
  input: StepInput,
  now: number,
  automatic?: Automatic,
): StepResult {
  if (isFinished(s)) return { ok: false, reason: 'finished', message: SESSION_ENDED };
  const r = advanceFlow(s.settings.flow, s.position, {
    nodeId: input.nodeId,
    outcome: input.outcome,
  });
  if (!r.ok) return r;
  const node = nodeById(s.settings.flow, input.nodeId);
  let next = addNodeReport(s, {
    nodeId: input.nodeId,
    type: node?.type ?? (s.position.nodeType as NodeReport['type']),
    outcome: input.outcome,
    createdAt: now,
    ...(input.inconclusiveReason ? { inconclusiveReason: input.inconclusiveReason } : {}),
    ...(input.report ? { report: input.report } : {}),
  });
  next = withEnd({ ...next, lastActivityAt: now }, r.position, now);
  return { ok: true, session: automatic ? settle(next, now, automatic) : next };
}

/**
 * Ends the session `incomplete` now, keeping the path so far, for `reason`: the user left or
 * declined, a timeout passed, or the integrator stopped it (an erasure).
 *
 * @example
 * endIncomplete(session, Date.now(), 'left').position.endReason; // 'left'
 */
export function endIncomplete(
  s: SessionRecord,
  now: number,
  reason: Extract<EndReason, 'left' | 'declined' | 'timedOut' | 'stopped'>,
): SessionRecord {
  if (isFinished(s)) return s;
  const position: FlowPosition = {
    ...s.position,
    nodeId: null,
    nodeType: null,
    status: 'incomplete',
    endReason: reason,
  };
  return withEnd(s, position, now);
}

/**
 * The first opening of the hosted page: `inProgress`, `startedAt`, and the nodes that run by
 * themselves. A later opening (a refreshed secret) changes nothing but the activity time.
 *
 * @example
 * open(session, Date.now(), { device, location }, automatic);
 */
export function open(
  s: SessionRecord,
  now: number,
  seen: Pick<SessionRecord['report'], 'device' | 'location'>,
  automatic: Automatic,
): SessionRecord {
  if (isFinished(s)) return s;
  if (s.status !== 'created') return { ...s, lastActivityAt: now };
  const started: SessionRecord = {
    ...s,
    status: 'inProgress',
    startedAt: now,
    lastActivityAt: now,
    report: { ...s.report, ...seen },
  };
  const settled = settle(started, now, automatic);
  // A flow whose start leads straight to an end is over as soon as it opens.
  return settled.position.status !== 'active' && !isFinished(settled)
    ? withEnd(settled, settled.position, now)
    : settled;
}
