import { createActor, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { FlowNode, Position } from '../api/types';
import { serverOutcome } from './serverOutcome';

const mail = { id: 'mail', type: 'enter_email', outcomes: {} } as unknown as FlowNode;

/** The actor of the `mail` node under a parent that records what it sends back. */
function mailActor() {
  const heard: string[] = [];
  const parent = setup({
    types: { events: {} as { type: 'outcome'; outcome: string } },
    actors: { node: serverOutcome<'enter_email'>() },
  }).createMachine({
    invoke: { id: 'node', src: 'node', input: { node: mail as never } },
    on: { outcome: { actions: ({ event }) => heard.push(event.outcome) } },
  });
  const actor = createActor(parent).start();
  const tell = (position: Position) =>
    actor.getSnapshot().children.node?.send({ type: 'position', position });
  return { heard, tell };
}

const position = (path: Position['path'], nodeId: string | null = 'next'): Position => ({
  nodeId,
  nodeType: null,
  status: nodeId ? 'active' : 'complete',
  path,
});

describe('serverOutcome', () => {
  it('ends with the outcome the server recorded for its node', () => {
    const { heard, tell } = mailActor();
    tell(
      position([
        { nodeId: 'perm', type: 'permissions', outcome: 'permissionsGranted' },
        { nodeId: 'mail', type: 'enter_email', outcome: 'canceled' },
      ]),
    );
    expect(heard).toEqual(['canceled']);
  });

  it('waits while the server keeps the session on its node, or names other nodes only', () => {
    const { heard, tell } = mailActor();
    tell(position([], 'mail'));
    tell(position([{ nodeId: 'perm', type: 'permissions', outcome: 'permissionsGranted' }]));
    expect(heard).toEqual([]);
    tell(position([{ nodeId: 'mail', type: 'enter_email', outcome: 'emailEntered' }], null));
    expect(heard).toEqual(['emailEntered']);
  });

  it('ends once, whatever it is told after', () => {
    const { heard, tell } = mailActor();
    const passed = position([{ nodeId: 'mail', type: 'enter_email', outcome: 'emailEntered' }]);
    tell(passed);
    tell(passed);
    expect(heard).toEqual(['emailEntered']);
  });
});
