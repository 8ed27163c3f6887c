/**
 * How a stored session moves: every step goes through the core's `advanceFlow` (the compiled
 * machine), nodes that need no user run here at once, and the session's status, timestamps,
 * node reports and `isVerified` follow the position. Pure functions over `SessionRecord`.
 */
import type { NodeReport } from '../../core/api';
import { advanceFlow, isVerified, type FlowNode, type FlowPosition } from '../../core/flow';
import type { SessionRecord } from '../store/types';
import { pickCheckOutcome, runValidation } from './dataValidation';

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

function withEnd(s: SessionRecord, position: FlowPosition, now: number): SessionRecord {
  if (position.status === 'active') return { ...s, position };
  const status = position.status === 'complete' ? 'complete' : 'incomplete';
  return {
    ...s,
    position,
    status,
    finishedAt: now,
    report: { ...s.report, isVerified: isVerified(position.path, position.status) },
  };
}

function addNodeReport(s: SessionRecord, r: NodeReport): SessionRecord {
  return { ...s, report: { ...s.report, nodeReports: [...s.report.nodeReports, r] } };
}

/**
 * Runs the nodes nobody has to act on (`data_validation`) until the position rests on a node a
 * user acts on, or the flow ends.
 *
 * @example
 * const ready = settle(session, Date.now());
 */
export function settle(s: SessionRecord, now: number): SessionRecord {
  let cur = s;
  for (let guard = 0; guard <= cur.settings.flow.length; guard++) {
    const node = currentNode(cur);
    if (!node || node.type !== 'data_validation') return cur;
    const result = runValidation(
      node.validation,
      {
        providedData: cur.settings.providedData,
        extractedData: cur.report.extractedData ?? {},
        metadata: cur.settings.metadata,
      },
      now,
    );
    const outcome = pickCheckOutcome(node.outcomes, result);
    const report = { check: result, field: node.validation.field, action: node.validation.action };
    if (outcome === null) {
      // No outcome takes this result: the flow cannot go on, the session ends incomplete.
      const position: FlowPosition = {
        nodeId: null,
        nodeType: null,
        status: 'incomplete',
        path: [...cur.position.path, { nodeId: node.id, type: node.type, outcome: result, result }],
      };
      cur = addNodeReport(cur, {
        nodeId: node.id,
        type: node.type,
        outcome: result,
        createdAt: now,
        report,
      });
      return withEnd(cur, position, now);
    }
    const stepped = step(cur, { nodeId: node.id, outcome, report }, now, false);
    if (!stepped.ok) return cur;
    cur = stepped.session;
  }
  return cur;
}

/**
 * Moves the session by one node outcome, checked by the compiled machine; records the node report,
 * runs what follows by itself and ends the session when the flow ends.
 *
 * @example
 * const r = step(session, { nodeId: 'perm', outcome: 'permissionsGranted' }, Date.now());
 * if (r.ok) session = r.session;
 */
export function step(
  s: SessionRecord,
  input: StepInput,
  now: number,
  settleAfter = true,
): StepResult {
  if (isFinished(s)) {
    return { ok: false, reason: 'finished', message: 'The session has already ended' };
  }
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
  return { ok: true, session: settleAfter ? settle(next, now) : next };
}

/**
 * Ends the session `incomplete` now (the user's exit, a timeout), keeping the path so far.
 *
 * @example
 * endIncomplete(session, Date.now()).status; // 'incomplete'
 */
export function endIncomplete(s: SessionRecord, now: number): SessionRecord {
  if (isFinished(s)) return s;
  const position: FlowPosition = {
    ...s.position,
    nodeId: null,
    nodeType: null,
    status: 'incomplete',
  };
  return withEnd(s, position, now);
}

/**
 * The first opening of the hosted page: `inProgress`, `startedAt`, and the nodes that run by
 * themselves. A later opening (a refreshed secret) changes nothing but the activity time.
 *
 * @example
 * open(session, Date.now(), { device, location });
 */
export function open(
  s: SessionRecord,
  now: number,
  seen: Pick<SessionRecord['report'], 'device' | 'location'>,
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
  const settled = settle(started, now);
  // A flow whose start leads straight to an end is over as soon as it opens.
  return settled.position.status !== 'active' && !isFinished(settled)
    ? withEnd(settled, settled.position, now)
    : settled;
}
