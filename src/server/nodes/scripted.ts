import type { FlowNode } from '../../core/flow';
import type { AutomaticMove, SessionRecord } from '../flow/gateway';
import type { ServerNode } from './types';

/**
 * The move of a node a test session's creator scripted (`testOutcomes`): the node ends at once
 * with that outcome, its report accepted as the tester panel's choice would be (the kind's
 * `acceptResult` in test mode, with nothing reported). Null outside test mode or for a node not
 * scripted, so a live session never moves by a script.
 *
 * @example
 * scriptedMove(permNode, testSession, serverNode('permissions'));
 * // { outcome: 'permissionsGranted', report: {} }
 */
export function scriptedMove(
  node: FlowNode,
  s: SessionRecord,
  kind: Pick<ServerNode<FlowNode['type'], never>, 'acceptResult'>,
): AutomaticMove | null {
  if (s.mode !== 'test') return null;
  const outcome = s.settings.testOutcomes?.[node.id];
  if (outcome === undefined) return null;
  const accepted = kind.acceptResult?.(outcome, undefined, { testMode: true });
  return { outcome, report: accepted?.report ?? {} };
}
