import { fromCallback } from 'xstate';
import type { NodeActorEvent, NodeActorInput, NodeActorLogic, WorkNodeType } from '../../core/flow';

/**
 * The actor of a node on the page, for a kind whose outcomes the server decides (all of them:
 * the server is the authority). The node's screen reports what the user did to the server and
 * the server answers with the session's position; the flow runner (`flowRunner.ts`) tells the
 * actor each position, and once the position's path has passed the node the actor ends with the
 * outcome the server recorded there, `sendBack({ type: 'outcome', outcome })`, so the flow machine
 * moves exactly as the server did. A flow is acyclic: a node is passed at most once.
 *
 * @example
 * export const enterEmailPage = { type: 'enter_email', screen, actor: serverOutcome() };
 */
export function serverOutcome<T extends WorkNodeType>(): NodeActorLogic<T> {
  return fromCallback<NodeActorEvent, NodeActorInput<T>>(({ input, receive, sendBack }) => {
    let ended = false;
    receive((event) => {
      if (ended || event.type !== 'position') return;
      const step = event.position.path.find((s) => s.nodeId === input.node.id);
      if (!step) return;
      ended = true;
      sendBack({ type: 'outcome', outcome: step.outcome });
    });
  });
}
